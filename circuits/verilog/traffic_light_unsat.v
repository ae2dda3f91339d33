// Two traffic lights (north-south, east-west), each with its own RED/GREEN/YELLOW state
// machine. A light may turn green only while the other one is red and it holds the turn
// token; when it goes back to red it passes the token to the other direction.
// A green phase lasts until the timer expires or (after one cycle) a car waits on the other road.
// Property: never both green (holds, but is not inductive on its own: the proof needs an
// invariant tying the turn token to the two state machines, e.g. turn == 0 -> ew == RED).
module traffic_light_unsat (
    input  wire clk,
    input  wire car_ns,
    input  wire car_ew,
    output wire ns_green,
    output wire ew_green
);
    localparam RED = 2'd0, GREEN = 2'd1, YELLOW = 2'd2;

    reg [1:0] ns, ew;
    reg       turn;   // 0: north-south may go next, 1: east-west may go next
    reg [1:0] timer;

    initial begin
        ns = RED;
        ew = RED;
        turn = 1'b0;
        timer = 2'd0;
    end

    assign ns_green = (ns == GREEN);
    assign ew_green = (ew == GREEN);

    always @(posedge clk) begin
        case (ns)
            RED:
                if (ew == RED && turn == 1'b0 && car_ns) begin
                    ns <= GREEN;
                    timer <= 2'd0;
                end
            GREEN:
                if (timer == 2'd3 || (car_ew && timer != 2'd0))
                    ns <= YELLOW;
                else
                    timer <= timer + 2'd1;
            YELLOW: begin
                ns <= RED;
                turn <= 1'b1;
            end
            default: ns <= RED;
        endcase

        case (ew)
            RED:
                if (ns == RED && turn == 1'b1 && car_ew) begin
                    ew <= GREEN;
                    timer <= 2'd0;
                end
            GREEN:
                if (timer == 2'd3 || (car_ns && timer != 2'd0))
                    ew <= YELLOW;
                else
                    timer <= timer + 2'd1;
            YELLOW: begin
                ew <= RED;
                turn <= 1'b0;
            end
            default: ew <= RED;
        endcase
    end

    always @* assert (!(ns_green && ew_green));
endmodule
