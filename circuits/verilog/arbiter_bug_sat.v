// A two-client arbiter. An idle arbiter grants the requesting client (on a tie the client
// that was not granted last); a grant is held until its client drops the request, and is then
// handed over to the other client if it is requesting.
// BUG: an "anti-starvation" shortcut grants client 0 once it has waited two cycles while
// client 1 holds the grant, but forgets to revoke client 1's grant.
// Property: never both grants (fails: shortest counterexample at frame 3).
module arbiter_bug_sat (
    input  wire clk,
    input  wire req0,
    input  wire req1,
    output reg  gnt0,
    output reg  gnt1
);
    reg       last;   // client granted most recently
    reg [1:0] wait0;  // cycles client 0 has been waiting (saturates at 3)

    initial begin
        gnt0 = 1'b0;
        gnt1 = 1'b0;
        last = 1'b0;
        wait0 = 2'd0;
    end

    always @(posedge clk) begin
        if (req0 && !gnt0)
            wait0 <= (wait0 == 2'd3) ? 2'd3 : wait0 + 2'd1;
        else
            wait0 <= 2'd0;

        if (!gnt0 && !gnt1) begin
            if (req0 && (!req1 || last)) begin
                gnt0 <= 1'b1;
                last <= 1'b0;
            end else if (req1) begin
                gnt1 <= 1'b1;
                last <= 1'b1;
            end
        end else if (gnt0) begin
            if (!req0) begin
                gnt0 <= 1'b0;
                if (req1) begin
                    gnt1 <= 1'b1;
                    last <= 1'b1;
                end
            end
        end else begin
            if (!req1) begin
                gnt1 <= 1'b0;
                if (req0) begin
                    gnt0 <= 1'b1;
                    last <= 1'b0;
                end
            end
            if (req0 && wait0 == 2'd2)
                gnt0 <= 1'b1;  // BUG: gnt1 is not cleared
        end
    end

    always @* assert (!(gnt0 && gnt1));
endmodule
