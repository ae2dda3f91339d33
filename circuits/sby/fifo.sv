// A 4-entry FIFO with its occupancy count, read and write pointers and storage.
// With `BUG` defined, a push into a full FIFO is accepted: the count passes 4 on the
// fifth push without a pop (cycle 5), and `no_overflow` fails.
module fifo (
    input  wire       clk,
    input  wire       push,
    input  wire       pop,
    input  wire [7:0] din,
    output wire [7:0] dout,
    output wire       full,
    output wire       empty
);
    reg [7:0] mem [0:3];
    reg [2:0] count;
    reg [1:0] wr, rd;
    initial begin
        count = 3'd0;
        wr = 2'd0;
        rd = 2'd0;
    end

    assign full  = count == 3'd4;
    assign empty = count == 3'd0;
    assign dout  = mem[rd];

`ifdef BUG
    wire do_push = push;
`else
    wire do_push = push && !full;
`endif
    wire do_pop = pop && !empty;

    always @(posedge clk) begin
        if (do_push) begin
            mem[wr] <= din;
            wr <= wr + 2'd1;
        end
        if (do_pop)
            rd <= rd + 2'd1;
        count <= count + {2'd0, do_push} - {2'd0, do_pop};
    end

    always @* begin
        no_overflow: assert (count <= 3'd4);
        pointers_agree: assert (wr - rd == count[1:0]);
    end
endmodule
