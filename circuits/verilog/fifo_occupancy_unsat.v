// Occupancy counter of a 4-entry FIFO. Pushes into a full FIFO and pops from an empty one
// are ignored, a simultaneous push and pop leaves the count unchanged.
// Property: the count never exceeds the capacity (holds).
module fifo_occupancy_unsat (
    input  wire       clk,
    input  wire       push,
    input  wire       pop,
    output wire       full,
    output wire       empty,
    output reg  [2:0] count
);
    initial count = 3'd0;

    assign full  = (count == 3'd4);
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
