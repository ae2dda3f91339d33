// Covers with two fates, and an assertion (`tests/verilog.rs` checks them with
// `warden check circuits/verilog/covers.sv --cover`, and the assertion without `--cover`):
// `level` counts up while `up` is high and down while it is low, and saturates at 0 and 10.
// - c_seven: `level == 7` is reached at cycle 7 at the earliest (seven steps up);
// - c_twelve: `level == 12` is unreachable (`level` never exceeds 10: the invariant that
//   proves it is the assertion's);
// - the unlabelled cover (named covers.sv:NN by its line) is reached at cycle 3 (three up,
//   and `up` low then);
// - p_bounded: `level <= 10` holds.
module covers (
    input  wire clk,
    input  wire up
);
    reg [3:0] level;
    initial level = 4'd0;

    always @(posedge clk)
        if (up && level != 4'd10) level <= level + 4'd1;
        else if (!up && level != 4'd0) level <= level - 4'd1;

    always @* begin
        p_bounded: assert (level <= 4'd10);
        c_seven: cover (level == 4'd7);
        c_twelve: cover (level == 4'd12);
        cover (level == 4'd3 && !up);
    end
endmodule
