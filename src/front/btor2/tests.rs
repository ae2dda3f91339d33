use super::*;
use crate::wl::{self, BitVec, Sort, Value};

/// Every tag of the format, once (plus negated operands, symbols and comments).
const ALL_TAGS: &str = "\
; every tag
1 sort bitvec 1
2 sort bitvec 8
3 sort bitvec 16
4 sort bitvec 3
5 sort array 4 2
6 input 2 a ; a comment
7 input 2 b
8 state 2 s
9 state 5 mem
10 const 2 00000011
11 constd 2 -2
12 consth 2 fF
13 zero 2
14 one 2
15 ones 2
16 init 2 8 10
17 init 5 9 13
18 sext 3 6 8
19 uext 3 7 8
20 slice 4 6 7 5
21 not 2 6
22 inc 2 6
23 dec 2 6
24 neg 2 6
25 redand 1 6
26 redor 1 6
27 redxor 1 6
28 iff 1 25 26
29 implies 1 25 -26
30 eq 1 6 7
31 neq 1 6 7
32 sgt 1 6 7
33 sgte 1 6 7
34 slt 1 6 7
35 slte 1 6 7
36 ugt 1 6 7
37 ugte 1 6 7
38 ult 1 6 7
39 ulte 1 6 7
40 and 2 6 7
41 nand 2 6 7
42 nor 2 6 7
43 or 2 6 7
44 xnor 2 6 7
45 xor 2 6 7
46 rol 2 6 7
47 ror 2 6 7
48 sll 2 6 7
49 sra 2 6 7
50 srl 2 6 7
51 add 2 6 7
52 mul 2 6 7
53 sdiv 2 6 7
54 smod 2 6 7
55 srem 2 6 7
56 sub 2 6 7
57 udiv 2 6 7
58 urem 2 6 7
59 concat 3 6 7
60 saddo 1 6 7
61 uaddo 1 6 7
62 sdivo 1 6 7
63 smulo 1 6 7
64 umulo 1 6 7
65 ssubo 1 6 7
66 usubo 1 6 7
67 read 2 9 20
68 ite 2 30 67 8
69 write 5 9 20 6
70 next 2 8 68
71 next 5 9 69
72 bad 30 equal
73 constraint -31
74 fair 26
75 justice 2 25 26
76 output 59 wide
77 eq 1 9 9
";

#[test]
fn every_tag_parses_with_its_sort() {
    let m = parse(ALL_TAGS).unwrap();
    assert_eq!(m.inputs().len(), 2);
    assert_eq!(m.states().len(), 2);
    assert_eq!(
        m.states()[1].sort,
        Sort::Array {
            index: 3,
            element: 8
        }
    );
    assert_eq!(m.bad().len(), 1);
    assert_eq!(m.bad()[0].name.as_deref(), Some("equal"));
    assert_eq!(m.constraints().len(), 1);
    assert_eq!(m.fairness().len(), 1);
    assert_eq!(m.justice()[0].len(), 2);
    assert_eq!(m.sort(m.outputs()[0].term), Sort::Bv(16));
    // Constants fold at parse time: `-2` and `fF` in 8 bits.
    let s0 = m.states()[0].init.unwrap();
    assert_eq!(m.constant(s0), Some(&BitVec::from_u64(8, 3)));
}

#[test]
fn the_blasted_system_of_every_tag_replays_like_the_words() {
    let m = parse(ALL_TAGS).unwrap();
    let (ts, bits) = wl::blast(&m, &crate::Budget::new(None)).unwrap();
    assert_eq!(ts.bad.len(), 1);
    assert_eq!(ts.justice.len(), 1);
    // Frame 0 with a = b = 7 satisfies the constraint `not (a != b)` and the bad `a == b`.
    let kinds = ts.leaf_kinds();
    let mut bit_trace = crate::ts::Trace {
        init: ts.latches.iter().map(|l| l.init.unwrap_or(false)).collect(),
        inputs: vec![vec![false; ts.inputs.len()]],
        bad: 0,
    };
    for word in &bits.inputs {
        for (i, l) in word.flat().iter().enumerate() {
            if let Some(crate::ts::Leaf::Input(n)) = kinds[l.var().index()] {
                bit_trace.inputs[0][n] = i < 3;
            }
        }
    }
    assert_eq!(crate::ts::replay(&ts, &bit_trace), Ok(0));
    let words = wl::lift_trace(&m, &bits, &ts, &bit_trace);
    assert_eq!(words.inputs[0][0], Value::Bv(BitVec::from_u64(8, 7)));
    assert_eq!(wl::replay(&m, &words), Ok(0));
    // The printed witness parses back to the same trace.
    let text = write_witness(&m, &words);
    let back = parse_witness(&text, &m).unwrap();
    assert_eq!(back.bad, vec![0]);
    assert_eq!(wl::replay(&m, &back.trace), Ok(0));
}

fn error(text: &str) -> ParseError {
    parse(text).unwrap_err()
}

#[test]
fn sort_errors_name_the_line_the_node_and_both_sorts() {
    let e = error("1 sort bitvec 8\n2 sort bitvec 1\n3 input 1 x\n\n4 add 2 3 3\n");
    assert_eq!(e.line, 5);
    assert!(e.message.contains("node 4"), "{e}");
    assert!(
        e.message.contains("bitvec 1") && e.message.contains("bitvec 8"),
        "{e}"
    );
    let e = error("1 sort bitvec 8\n2 input 1 x\n3 sort bitvec 4\n4 input 3 y\n5 sort bitvec 1\n6 ult 5 2 4\n");
    assert_eq!(e.line, 6);
    assert!(e.message.contains("same sort"), "{e}");
    let e = error("1 sort bitvec 8\n2 input 1 x\n3 bad 2\n");
    assert!(
        e.message.contains("bitvec 1") && e.message.contains("bitvec 8"),
        "{e}"
    );
}

#[test]
fn malformed_lines_are_rejected_with_their_line() {
    let cases = [
        (
            "1 sort bitvec 8\n2 input 1 x\n3 add 1 2 9\n",
            3,
            "not defined",
        ),
        ("1 sort bitvec 8\n2 frobnicate 1 2\n", 2, "unknown tag"),
        ("1 sort bitvec 4\n2 const 1 101\n", 2, "width 4"),
        ("1 sort bitvec 4\n2 consth 1 1f\n", 2, "width 4"),
        ("1 sort bitvec 0\n", 1, "out of range"),
        ("1 sort bitvec 4\n1 input 1\n", 2, "defined twice"),
        ("1 sort bitvec 4\n2 input 1\n3 slice 1 2 5 2\n", 3, "slice"),
        (
            "1 sort bitvec 4\n2 input 1\n3 init 1 2 2\n",
            3,
            "not a state",
        ),
        (
            "1 sort bitvec 4\n2 state 1\n3 input 1 x y\n",
            3,
            "unexpected 'y'",
        ),
        ("x sort bitvec 4\n", 1, "positive node id"),
    ];
    for (text, line, what) in cases {
        let e = error(text);
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.message.contains(what), "{text}: {e}");
    }
}

#[test]
fn arrays_cannot_be_negated_and_need_matching_index_sorts() {
    let e = error("1 sort bitvec 2\n2 sort array 1 1\n3 input 2 m\n4 input 1 i\n5 read 1 -3 4\n");
    assert!(e.message.contains("only bit-vectors can be negated"), "{e}");
    let e = error("1 sort bitvec 2\n2 sort bitvec 3\n3 sort array 1 1\n4 input 3 m\n5 input 2 i\n6 read 1 4 5\n");
    assert!(e.message.contains("index of read must be bitvec 2"), "{e}");
}

#[test]
fn yosys_names_registers_through_outputs() {
    let m =
        parse("1 sort bitvec 4\n2 state 1\n3 output 2 count\n4 state 1 own\n5 output 4 other\n")
            .unwrap();
    assert_eq!(m.states()[0].name.as_deref(), Some("count"));
    assert_eq!(m.states()[1].name.as_deref(), Some("own"));
}

#[test]
fn witnesses_with_errors_are_rejected_with_their_line() {
    let m = parse("1 sort bitvec 4\n2 input 1 x\n3 sort bitvec 1\n4 redor 3 2\n5 bad 4\n").unwrap();
    let ok = parse_witness("sat\nb0\n#0\n@0\n0 0001 x\n.\n", &m).unwrap();
    assert_eq!(wl::replay(&m, &ok.trace), Ok(0));
    let cases = [
        ("sat\nb3\n@0\n.\n", "line 2"),
        ("sat\nb0\n@0\n0 01 x\n.\n", "line 4"),
        ("sat\nb0\n@0\n7 0001\n.\n", "no input 7"),
        ("sat\nb0\n@1\n.\n", "out of order"),
        ("sat\nb0\n@0\n0 0001\n", "does not end"),
    ];
    for (text, what) in cases {
        let e = parse_witness(text, &m).unwrap_err().to_string();
        assert!(e.contains(what), "{text}: {e}");
    }
}

/// `sll` of 1 by `2^32 + 1` on 64 bits and by `2^40 + 1` on 100 bits: 2 as btorsim computes
/// it (bits 32 to 63 of the amount unread), 0 as SMT-LIB (Yosys's BTOR2) means it. Bad
/// property 0 holds when both are 2, property 1 when both are 0.
#[test]
fn sll_reads_its_amount_as_btorsim_or_as_smtlib_asks() {
    let text = "\
1 sort bitvec 1
2 sort bitvec 64
3 one 2
4 consth 2 100000001
5 sll 2 3 4
6 constd 2 2
7 eq 1 5 6
8 zero 2
9 eq 1 5 8
10 sort bitvec 100
11 one 10
12 consth 10 10000000001
13 sll 10 11 12
14 constd 10 2
15 eq 1 13 14
16 zero 10
17 eq 1 13 16
18 and 1 7 15
19 bad 18
20 and 1 9 17
21 bad 20
";
    let frame = |bad| wl::Trace {
        bad,
        states: vec![vec![]],
        inputs: vec![vec![]],
    };
    let btorsim = parse(text).unwrap();
    assert_eq!(wl::replay(&btorsim, &frame(0)), Ok(0));
    assert!(wl::replay(&btorsim, &frame(1)).is_err());
    let smtlib = parse_with(text, Shifts::SmtLib).unwrap();
    assert_eq!(wl::replay(&smtlib, &frame(1)), Ok(0));
    assert!(wl::replay(&smtlib, &frame(0)).is_err());
}
