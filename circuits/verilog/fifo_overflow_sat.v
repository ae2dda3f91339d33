// The occupancy counter of fifo_occupancy_unsat with an off-by-one bug: the FIFO is
// considered full only at 5 entries, so a fifth push is accepted.
// Property: the count never exceeds the capacity 4 (fails after 5 pushes: frame 5).
module fifo_overflow_sat (
    input  wire       clk,
    input  wire       push,
    input  wire       pop,
    output wire       full,
    output wire       empty,
    output reg  [2:0] count
);
    initial count = 3'd0;

    assign full  = (count == 3'd5);  // BUG: should be 4
    assign empty = (count == 3'd0);

    wire do_push = push && !full;
    wire do_pop  = pop && !empty;

    always @(posedge clk) begin
        if (do_push && !do_pop)
            count <= count + 3'd1;
        else if (do_pop && !do_push)
            count <= count - 3'd1;
    end

    always @* assert (count <= 3'd4);
endmodule
