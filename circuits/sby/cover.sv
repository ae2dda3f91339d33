// A counter that runs 0, 1, ..., 9 and wraps to 0, advancing when `tick` is high.
// Covers: `count == 7` is reached (at cycle 7 at the earliest); `count == 12` never is, and
// warden proves it unreachable instead of giving up at the depth.
module cover_counter (
    input  wire       clk,
    input  wire       tick,
    output reg  [3:0] count
);
    initial count = 4'd0;

    always @(posedge clk)
        if (tick) count <= (count == 4'd9) ? 4'd0 : count + 4'd1;

    always @* begin
        reach_seven: cover (count == 4'd7);
        reach_twelve: cover (count == 4'd12);
        in_range: assert (count <= 4'd9);
    end
endmodule
