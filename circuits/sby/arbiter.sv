// A two-client round-robin arbiter: a pending request is granted when its client's turn
// comes, and the turn passes to the other client after each grant. Liveness: every request
// is eventually granted. With `BUG` defined, the turn passes only when the other client
// asks, so client 1 can wait forever while client 0 keeps asking.
module arbiter (
    input  wire       clk,
    input  wire [1:0] req,
    output reg  [1:0] gnt
);
    reg turn;
    reg [1:0] pending;
    initial begin
        turn = 1'b0;
        pending = 2'b00;
        gnt = 2'b00;
    end

    wire [1:0] want = pending | req;

    always @(posedge clk) begin
        gnt <= 2'b00;
        pending <= want;
        if (want[turn]) begin
            gnt[turn] <= 1'b1;
            pending[turn] <= 1'b0;
`ifdef BUG
            if (want[!turn] && !want[turn])
`endif
            turn <= !turn;
        end else if (want[!turn]) begin
            turn <= !turn;
        end
    end

    always @(posedge clk) begin
        if (pending[0]) granted_0: assert property (s_eventually gnt[0]);
        if (pending[1]) granted_1: assert property (s_eventually gnt[1]);
    end
endmodule
