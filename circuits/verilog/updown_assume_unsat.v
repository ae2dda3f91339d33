// An up/down counter whose environment is restricted by assumptions (which yosys writes as
// AIGER invariant constraints): no increment at 5 and no decrement at 0.
// Property: the value stays in 0..5 (holds only because of the assumptions; without them
// a decrement at 0 wraps to 7 in frame 1).
module updown_assume_unsat (
    input  wire       clk,
    input  wire       inc,
    input  wire       dec,
    output reg  [2:0] value
);
    initial value = 3'd0;

    always @(posedge clk)
        value <= value + {2'b00, inc} - {2'b00, dec};

    always @* begin
        assume (!(inc && value == 3'd5));
        assume (!(dec && value == 3'd0));
        assert (value <= 3'd5);
    end
endmodule
