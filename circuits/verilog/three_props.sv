// Three assertions with three fates (issue 16; `tests/verilog.rs` checks each with
// `warden check circuits/verilog/three_props.sv`, and the witness with Yosys's own `sim`):
// - p_fails: `count` runs 0, 1, 2, ... and wraps after 9, so `count != 5` fails at cycle 5
//   (whatever the inputs do: the shortest and only depth is 5);
// - p_holds: `count < 200` holds (count never exceeds 9);
// - p_needs_assume: `u_level.level`, raised by the input `inc`, stays below 9 only because
//   the `assume` forbids `inc` once it is 8. Without the assume (`--define NO_ASSUME`) it
//   fails at cycle 9 (nine increments).
module level_counter (
    input  wire       clk,
    input  wire       inc,
    output reg  [3:0] level
);
    initial level = 4'd0;
    always @(posedge clk) if (inc) level <= level + 4'd1;
endmodule

module three_props (
    input  wire       clk,
    input  wire       inc,
    output reg  [7:0] count
);
    wire [3:0] level;
    initial count = 8'd0;

    level_counter u_level (.clk(clk), .inc(inc), .level(level));

    always @(posedge clk) count <= (count == 8'd9) ? 8'd0 : count + 8'd1;

    always @* begin
`ifndef NO_ASSUME
        assume (!(inc && level == 4'd8));
`endif
        p_fails: assert (count != 8'd5);
        p_holds: assert (count < 8'd200);
        p_needs_assume: assert (level != 4'd9);
    end
endmodule
