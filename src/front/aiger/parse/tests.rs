use super::*;

const HALF_ADDER: &str = "aag 7 2 0 2 3\n2\n4\n6\n12\n6 13 15\n12 2 4\n14 3 5\n\
                          i0 x\ni1 y\no0 s\no1 c\nc\nhalf adder\n";

/// The half adder of the AIGER specification, in its binary form.
const HALF_ADDER_BINARY: &[u8] =
    b"aig 5 2 0 2 3\n10\n6\n\x02\x02\x03\x02\x01\x02i0 x\ni1 y\no0 s\no1 c\nc\nhalf adder\n";

fn names(names: &[&str]) -> Vec<Option<String>> {
    names.iter().map(|n| Some(n.to_string())).collect()
}

#[test]
fn ascii_1_0_with_symbols_and_comments() {
    let a = parse(HALF_ADDER.as_bytes()).unwrap();
    assert_eq!(a.maxvar, 7);
    assert_eq!(a.inputs, vec![2, 4]);
    assert!(a.latches.is_empty());
    assert_eq!(a.outputs, vec![6, 12]);
    assert!(a.bad.is_empty() && a.constraints.is_empty());
    assert!(a.justice.is_empty() && a.fairness.is_empty());
    // Gates are kept in file order, even when not topological.
    assert_eq!(a.ands, vec![(6, 13, 15), (12, 2, 4), (14, 3, 5)]);
    assert_eq!(a.symbols.inputs, names(&["x", "y"]));
    assert_eq!(a.symbols.outputs, names(&["s", "c"]));
    assert!(a.symbols.latches.is_empty());
    assert_eq!(a.comments, vec!["half adder".to_string()]);
}

#[test]
fn binary_1_0_from_the_specification() {
    let a = parse(HALF_ADDER_BINARY).unwrap();
    assert_eq!(a.maxvar, 5);
    assert_eq!(a.inputs, vec![2, 4]);
    assert_eq!(a.outputs, vec![10, 6]);
    assert_eq!(a.ands, vec![(6, 4, 2), (8, 5, 3), (10, 9, 7)]);
    assert_eq!(a.symbols.outputs, names(&["s", "c"]));
    assert_eq!(a.comments, vec!["half adder".to_string()]);
}

#[test]
fn ascii_1_9_sections() {
    let text = "aag 5 1 1 1 2 1 1 2 1\n2\n4 10 1\n4\n10\n11\n2\n1\n2\n5\n7\n3\n6 2 4\n10 6 3\n\
                b0 never\nj1 live\nf0 fair\n";
    let a = parse(text.as_bytes()).unwrap();
    assert_eq!(
        a.latches,
        vec![Latch {
            lit: 4,
            next: 10,
            reset: 1
        }]
    );
    assert_eq!(a.outputs, vec![4]);
    assert_eq!(a.bad, vec![10]);
    assert_eq!(a.constraints, vec![11]);
    assert_eq!(a.justice, vec![vec![2, 5], vec![7]]);
    assert_eq!(a.fairness, vec![3]);
    assert_eq!(a.ands, vec![(6, 2, 4), (10, 6, 3)]);
    assert_eq!(a.symbols.bad, names(&["never"]));
    assert_eq!(a.symbols.justice, vec![None, Some("live".into())]);
    assert_eq!(a.symbols.fairness, names(&["fair"]));
    assert!(a.comments.is_empty());
}

#[test]
fn binary_1_9_with_m_equal_to_i_plus_l_and_bad() {
    // The header that flussab-aiger rejects: M = I + L and B > 0.
    let a = parse(b"aig 2 1 1 0 0 1\n3 2\n4\n").unwrap();
    assert_eq!(a.inputs, vec![2]);
    assert_eq!(
        a.latches,
        vec![Latch {
            lit: 4,
            next: 3,
            reset: 2
        }]
    );
    assert_eq!(a.bad, vec![4]);
    assert_eq!(a.symbols.bad, vec![None]);
}

#[test]
fn latch_resets() {
    let a = parse(b"aag 4 1 3 0 0\n2\n4 4\n6 6 6\n8 8 3\n").unwrap();
    let resets: Vec<u32> = a.latches.iter().map(|l| l.reset).collect();
    // Missing reset: 0; the latch itself: uninitialised; anything else: reset function.
    assert_eq!(resets, vec![0, 6, 3]);
    assert!(parse(b"aag 4 1 1 0 0\n2\n4 4 8\n").is_err());
}

#[test]
fn blank_lines_only_in_the_symbol_table() {
    assert!(parse(b"aag 1 1 0 0 0\n\n2\n").is_err());
    assert!(parse(b"aag 1 1 0 0 0\n2\n\ni0 x\n\n").is_ok());
}

#[test]
fn missing_final_newline() {
    let a = parse(b"aag 3 2 0 1 1\n2\n4\n6\n6 2 4").unwrap();
    assert_eq!(a.ands, vec![(6, 2, 4)]);
    let a = parse(b"aag 1 1 0 0 0\n2\ni0 in").unwrap();
    assert_eq!(a.symbols.inputs, names(&["in"]));
    let a = parse(b"aig 3 2 0 1 1\n6\n\x02\x02").unwrap();
    assert_eq!(a.ands, vec![(6, 4, 2)]);
}

#[test]
fn huge_maxvar_with_few_variables_uses_a_sparse_table() {
    let a = parse(b"aag 2000000000 1 0 1 1\n4000000000\n3999999998\n3999999998 4000000000 1\n")
        .unwrap();
    assert_eq!(a.ands, vec![(3_999_999_998, 4_000_000_000, 1)]);
}

#[test]
fn error_display() {
    let e = parse(b"aag 1 1 0 0 0\n3\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: input literal 3 is negated (it must be even)"
    );
    let e = parse(b"aig 3 2 0 1 1\n6\n\x00\x00").unwrap_err();
    assert_eq!(
        e.to_string(),
        "byte 16: AND gate 6: delta0 is 0 (rhs0 must be smaller than lhs)"
    );
}

#[test]
fn never_panics_on_truncated_or_corrupted_files() {
    let mut files = vec![HALF_ADDER.as_bytes().to_vec(), HALF_ADDER_BINARY.to_vec()];
    // A larger binary file with multi-byte varints: a chain of 300 gates.
    let mut big = b"aig 302 2 0 1 300\n604\n".to_vec();
    big.extend_from_slice(&[2, 2]);
    for k in 1..300u32 {
        let lhs = 2 * (k + 3);
        let rhs0 = lhs - 2;
        let rhs1 = if k % 2 == 0 { 1 } else { 2 };
        for mut x in [lhs - rhs0, rhs0 - rhs1] {
            while x >= 0x80 {
                big.push((x & 0x7f) as u8 | 0x80);
                x >>= 7;
            }
            big.push(x as u8);
        }
    }
    big.extend_from_slice(b"o0 chain\nc\nend\n");
    assert_eq!(parse(&big).unwrap().ands.len(), 300);
    files.push(big);
    for file in &files {
        for end in 0..file.len() {
            // Must return, Ok or Err, without panicking.
            let _ = parse(&file[..end]);
        }
        for pos in 0..file.len() {
            for byte in [0x00, 0x0a, 0x20, 0x31, 0x39, 0x63, 0x7f, 0x80, 0xff] {
                let mut corrupt = file.clone();
                corrupt[pos] = byte;
                let _ = parse(&corrupt);
            }
        }
    }
}

#[test]
fn topological_order_of_unordered_gates() {
    let ands = [(6, 13, 15), (12, 2, 4), (14, 3, 5)];
    let index = |v: u32| [6, 12, 14].iter().position(|&l| l == 2 * v);
    assert_eq!(topo_order(&ands, index), Ok(vec![1, 2, 0]));
    assert_eq!(
        topo_order(&[(2, 4, 0), (4, 3, 0)], |v| (v >= 1)
            .then(|| v as usize - 1)),
        Err(1)
    );
}

#[test]
fn stratified_reset_functions_are_read() {
    // a resets to input x, b to !a (a's initial value), c to the gate x & a.
    let a = parse(b"aag 5 1 3 0 1 1\n2\n4 4 2\n6 6 5\n8 8 10\n8\n10 2 4\n").unwrap();
    let functions: Vec<Option<u32>> = a.latches.iter().map(|l| l.reset_function()).collect();
    assert_eq!(functions, vec![Some(2), Some(5), Some(10)]);
    // The same in binary (the implicit latches 4, 6, 8 and gate 10).
    let b = parse(b"aig 5 1 3 0 1 1\n4 2\n6 5\n8 10\n8\n\x06\x02").unwrap();
    assert_eq!(b.latches, a.latches);
}

#[test]
fn cyclic_reset_functions_are_rejected_at_a_latch_on_the_cycle() {
    // A latch resetting to its own negation (Certifaiger's unstratified example).
    let e = parse(b"aag 1 0 1 0 0 1\n2 2 3\n2\n").unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("latch 2"), "{e}");
    // a resets to b, b to the gate x & a: a cycle through a gate and two latches.
    let e = parse(b"aag 4 1 2 0 1 1\n2\n4 4 6\n6 6 8\n8\n8 2 4\n").unwrap_err();
    assert_eq!(e.to_string(), "line 3: the reset function 6 of latch 4 depends on the latch itself (reset functions must not form a cycle)");
    // Binary: the second latch (line 3) resets to itself through a gate.
    let e = parse(b"aig 4 1 2 0 1 1\n4 2\n6 8\n8\n\x02\x04").unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
}
