// An accumulator with a small RAM of partial sums (a Yosys memory becomes a BTOR2 array):
// every cycle it adds the 4-bit input to `acc` and stores `acc` at address `ptr`.
// Property: the accumulator stays below 40. It fails after three additions of 15
// (0, 15, 30, 45: frame 3).
module accumulator_sat (
    input  wire       clk,
    input  wire [3:0] in,
    output reg  [7:0] acc,
    output wire [7:0] last
);
    reg [1:0] ptr;
    reg [7:0] mem [0:3];
    initial acc = 8'd0;
    initial ptr = 2'd0;

    assign last = mem[ptr - 2'd1];

    always @(posedge clk) begin
        acc <= acc + {4'd0, in};
        mem[ptr] <= acc;
        ptr <= ptr + 2'd1;
    end

    always @* assert (acc < 8'd40);
endmodule
