"""Writes ic3_then_kind_unsat.aag (`python3 ic3_then_kind.py 16 20 > ic3_then_kind_unsat.aag`):
a safe circuit whose proof needs one lemma IC3 finds and a 20-step induction k-induction finds,
for the conditional model checking test (tests/conditions.rs)."""
import sys
W = int(sys.argv[1]) if len(sys.argv) > 1 else 16   # pipeline word width
N = int(sys.argv[2]) if len(sys.argv) > 2 else 20   # pipeline depth (even)
CW, BAD = 16, 60000                                  # counter width, bad counter value

inputs, latches, ands = [], [], []
nv = [0]
def var():
    nv[0] += 1
    return 2 * nv[0]
def AND(a, b):
    if a == 0 or b == 0: return 0
    if a == 1: return b
    if b == 1: return a
    if a == b: return a
    if a == b ^ 1: return 0
    g = var(); ands.append((g, a, b)); return g
def OR(a, b): return AND(a ^ 1, b ^ 1) ^ 1
def XOR(a, b): return OR(AND(a, b ^ 1), AND(a ^ 1, b))
def MUX(c, t, e): return OR(AND(c, t), AND(c ^ 1, e))
def add_const(x, k):
    out, carry = [], 0
    for i, b in enumerate(x):
        kb = 1 if (k >> i) & 1 else 0
        out.append(XOR(XOR(b, kb), carry))
        carry = OR(AND(b, kb), AND(carry, XOR(b, kb)))
    return out
def eq_const(x, k):
    r = 1
    for i, b in enumerate(x):
        r = AND(r, b if (k >> i) & 1 else b ^ 1)
    return r
def eq(x, y):
    r = 1
    for a, b in zip(x, y):
        r = AND(r, XOR(a, b) ^ 1)
    return r
def word_latches(name, w, init=0):
    ls = []
    for i in range(w):
        v = var(); latches.append([v, None, f"{name}[{i}]", (init >> i) & 1]); ls.append(v)
    return ls
def set_next(ls, nxt):
    idx = {l[0]: l for l in latches}
    for v, n in zip(ls, nxt):
        idx[v][1] = n

x = []
for i in range(W):
    v = var(); inputs.append((v, f"x[{i}]")); x.append(v)
# Part A: three latches rotate (a, b, c) <- (b, c, a) from 110, so never all three are
# high; a counter d counts while they are and input e is (never), and d == BAD is bad.
a, b, cc = word_latches("a", 1, 1)[0], word_latches("b", 1, 1)[0], word_latches("c", 1, 0)[0]
set_next([a, b, cc], [b, cc, a])
e = var(); inputs.append((e, "e"))
all3 = AND(a, AND(b, AND(cc, e)))
d = word_latches("d", CW)
inc = add_const(d, 1)
set_next(d, [MUX(all3, n, o) for n, o in zip(inc, d)])
bad_a = eq_const(d, BAD)
# Part B: x + 3 per stage for N stages, against N/2 plain delays then x + 6 per stage.
prev1, prev2 = x, x
for s in range(N):
    # Initial values as if x had been 0 forever: the outputs agree from the start.
    r1 = word_latches(f"p{s}", W, 3 * (s + 1) % (1 << W))
    set_next(r1, add_const(prev1, 3))
    prev1 = r1
    r2 = word_latches(f"q{s}", W, 0 if s < N // 2 else 6 * (s - N // 2 + 1) % (1 << W))
    set_next(r2, prev2 if s < N // 2 else add_const(prev2, 6))
    prev2 = r2
bad_b = eq(prev1, prev2) ^ 1
bad = OR(bad_a, bad_b)
M = nv[0]
out = [f"aag {M} {len(inputs)} {len(latches)} 0 {len(ands)} 1"]
out += [str(v) for v, _ in inputs]
out += [f"{v} {n} {i}" for v, n, _, i in latches]
out.append(str(bad))
out += [f"{g} {a} {b}" for g, a, b in ands]
out += [f"i{i} {n}" for i, (_, n) in enumerate(inputs)]
out += [f"l{i} {n}" for i, (_, _, n, _) in enumerate(latches)]
out.append("b0 bad")
out.append("c")
out.append(f"Conditional model checking example: bad = (d == {BAD}) or (p{N-1} != q{N-1}).")
out.append("a, b, c rotate from 110, so never all three are high (one ternary clause, which")
out.append("IC3 with counterexamples to propagation finds at once); d counts while all three")
out.append("and input e are high, so k-induction never proves d != BAD on its own (every")
out.append(f"state with d < {BAD} and a = b = c = 1 leads there). p adds 3 per stage for {N} stages,")
out.append(f"q delays {N//2} stages then adds 6 per stage (both start as if x had been 0): their")
out.append(f"outputs agree, {N}-inductively, while IC3 needs an adder relation per stage.")
print("\n".join(out))
