//! Malformed AIGER files must be rejected with the right position, and every benchmark file
//! must parse and survive a binary round trip.

use std::path::Path;
use std::time::{Duration, Instant};

use warden::front::aiger::{parse, write_binary, Aiger, ParseError};

fn reject(data: &[u8]) -> ParseError {
    match parse(data) {
        Ok(a) => panic!(
            "accepted malformed input {:?}: {a:?}",
            String::from_utf8_lossy(data)
        ),
        Err(e) => e,
    }
}

/// Asserts that `data` is rejected at `line` with a message containing `needle`.
fn at_line(data: &[u8], line: usize, needle: &str) {
    let e = reject(data);
    assert_eq!(e.line, Some(line), "wrong line in: {e}");
    assert_eq!(e.byte, None, "{e}");
    assert!(e.message.contains(needle), "expected {needle:?} in: {e}");
    assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
}

/// Asserts that `data` is rejected at byte offset `byte` with a message containing `needle`.
fn at_byte(data: &[u8], byte: usize, needle: &str) {
    let e = reject(data);
    assert_eq!(e.byte, Some(byte), "wrong byte in: {e}");
    assert_eq!(e.line, None, "{e}");
    assert!(e.message.contains(needle), "expected {needle:?} in: {e}");
    assert!(e.to_string().starts_with(&format!("byte {byte}: ")), "{e}");
}

/// A binary file with two inputs, no latches, output 6 and the AND section `ands`, which
/// starts at byte 16.
fn binary_and(ands: &[u8]) -> Vec<u8> {
    let mut data = b"aig 3 2 0 1 1\n6\n".to_vec();
    assert_eq!(data.len(), 16);
    data.extend_from_slice(ands);
    data
}

#[test]
fn binary_template_is_valid() {
    let a = parse(&binary_and(&[2, 2])).unwrap();
    assert_eq!(a.ands, vec![(6, 4, 2)]);
}

#[test]
fn bad_header_tag() {
    at_line(b"aog 1 0 0 0 0\n", 1, "must start with 'aag'");
    at_line(b"", 1, "must start with 'aag'");
    at_line(b"aag1 0 0 0 0\n", 1, "header");
}

#[test]
fn header_with_too_few_fields() {
    at_line(b"aag 1 1 0\n2\n", 1, "at least 5 numbers in header");
}

#[test]
fn header_with_too_many_fields() {
    at_line(
        b"aag 1 1 0 0 0 0 0 0 0 0\n2\n",
        1,
        "too many numbers in header",
    );
}

#[test]
fn header_number_overflows_u32() {
    at_line(b"aag 4294967296 0 0 0 0\n", 1, "number too large");
    at_line(b"aag 2147483648 0 0 0 0\n", 1, "too large");
}

#[test]
fn header_maxvar_smaller_than_definitions() {
    at_line(
        b"aag 1 1 0 0 1\n2\n4 2 2\n",
        1,
        "smaller than I + L + A = 2",
    );
    at_line(b"aig 1 1 0 0 1\n", 1, "smaller than I + L + A");
}

#[test]
fn fewer_lines_than_announced() {
    at_line(
        b"aag 2 2 0 1 0\n2\n4\n",
        4,
        "expected output, found end of file",
    );
    at_line(b"aag 3 2 0 1 1\n2\n4\n6\n", 5, "found end of file");
    at_line(b"aig 2 0 2 0 0\n2\n", 3, "found end of file");
}

#[test]
fn literal_out_of_range() {
    at_line(
        b"aag 1 1 0 1 0\n2\n4\n",
        3,
        "output literal 4 is out of range",
    );
    at_line(
        b"aag 2 2 0 0 0\n2\n6\n",
        3,
        "input literal 6 is out of range",
    );
    at_line(
        b"aig 1 0 1 0 0\n4\n",
        2,
        "next state literal 4 is out of range",
    );
}

#[test]
fn variable_defined_twice() {
    at_line(
        b"aag 2 2 0 0 0\n2\n2\n",
        3,
        "defined twice (first on line 2)",
    );
    at_line(
        b"aag 3 2 0 0 1\n2\n4\n4 2 2\n",
        4,
        "defined twice (first on line 3)",
    );
}

#[test]
fn undefined_literal_used() {
    at_line(b"aag 2 1 0 1 0\n2\n4\n", 3, "undefined literal 4");
    at_line(b"aag 3 1 0 1 1\n2\n6\n6 2 4\n", 4, "undefined literal 4");
    // M may exceed I + L + A in binary files too, but the extra variables stay undefined.
    at_line(b"aig 3 1 0 1 0\n6\n", 2, "undefined literal 6");
}

#[test]
fn cyclic_and_definitions() {
    at_line(
        b"aag 3 1 0 1 2\n2\n4\n4 6 2\n6 4 2\n",
        5,
        "cyclic AND definitions",
    );
    at_line(b"aag 2 1 0 0 1\n2\n4 5 2\n", 3, "gate 4 depends on itself");
}

#[test]
fn input_or_latch_literal_negated_or_constant() {
    at_line(b"aag 1 1 0 0 0\n3\n", 2, "input literal 3 is negated");
    at_line(b"aag 1 1 0 0 0\n0\n", 2, "input literal 0 is a constant");
    at_line(b"aag 1 0 1 0 0\n1 0\n", 2, "latch literal 1 is a constant");
}

#[test]
fn latch_reset_out_of_range() {
    at_line(
        b"aag 1 0 1 0 0\n2 2 4\n",
        2,
        "latch reset literal 4 is out of range",
    );
    at_line(
        b"aig 1 0 1 0 0\n2 5\n",
        2,
        "latch reset literal 5 is out of range",
    );
}

#[test]
fn latch_line_incomplete() {
    at_line(b"aag 1 0 1 0 0\n2\n", 2, "at least 2 numbers in latch");
}

#[test]
fn garbage_on_a_line() {
    at_line(b"aag 1 1 0 0 0\n2 x\n", 2, "unexpected 'x' in input");
    at_line(b"aag 1 1 0 0 0\n2x\n", 2, "unexpected 'x' in input");
}

#[test]
fn binary_and_section_truncated() {
    at_byte(&binary_and(&[2]), 17, "end of file");
    at_byte(&binary_and(&[]), 16, "end of file");
    at_byte(&binary_and(&[0x82]), 17, "end of file");
}

#[test]
fn binary_delta0_zero() {
    at_byte(&binary_and(&[0, 1]), 16, "delta0 is 0");
}

#[test]
fn binary_delta0_exceeds_lhs() {
    at_byte(&binary_and(&[7, 0]), 16, "exceeds lhs");
}

#[test]
fn binary_delta1_exceeds_rhs0() {
    at_byte(&binary_and(&[2, 5]), 16, "delta1 = 5 exceeds rhs0 = 4");
}

#[test]
fn binary_varint_overflows_u32() {
    at_byte(
        &binary_and(&[1, 0xff, 0xff, 0xff, 0xff, 0x7f]),
        17,
        "overflows 32 bits",
    );
    at_byte(
        &binary_and(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
        16,
        "overflows 32 bits",
    );
}

#[test]
fn binary_latch_literal_not_implicit() {
    at_line(
        b"aig 1 0 1 0 0\n2 2 0\n",
        2,
        "omit the implicit latch literal 2",
    );
    at_line(
        b"aig 2 0 2 0 0\n2\n2 4 0\n",
        3,
        "is not the implicit literal 4",
    );
}

#[test]
fn symbol_table_errors() {
    at_line(
        b"aag 1 1 0 0 0\n2\ni1 x\n",
        3,
        "symbol position 1 is out of range",
    );
    at_line(
        b"aag 1 1 0 0 0\n2\ni0 x\ni0 y\n",
        4,
        "'i0' is defined twice",
    );
    at_line(b"aag 1 1 0 0 0\n2\nx0 y\n", 3, "invalid symbol table line");
    // A justice property needs a literal (every infinite path would violate one without).
    at_line(b"aag 1 1 0 0 0 0 0 1 0\n2\n0", 3, "zero literals");
    at_line(b"aag 1 1 0 0 0\n2\ni0\n", 3, "expected a space");
    // After a binary AND section lines are not counted: positions are bytes.
    let mut data = binary_and(&[2, 2]);
    data.extend_from_slice(b"o0 out\no1 x\n");
    at_byte(&data, 25, "symbol position 1 is out of range");
}

#[test]
fn accepted_corner_cases() {
    // A missing final newline.
    let a = parse(b"aag 1 1 0 0 0 0 0 1 0\n2\n1\n3").unwrap();
    assert_eq!(a.justice, vec![vec![3]]);
    // Header with only B (partial 1.9 header), CRLF line ends, comment without newline.
    let a = parse(b"aag 1 1 0 0 0 1\r\n2\r\n3\r\ni0 x\r\nc\r\nhello").unwrap();
    assert_eq!(a.bad, vec![3]);
    assert_eq!(a.symbols.inputs, vec![Some("x".to_string())]);
    assert_eq!(a.comments, vec!["hello".to_string()]);
}

/// `I L O A` and the optional `B C J F` of a file's header, as written.
fn header_counts(data: &[u8]) -> Vec<usize> {
    let end = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let header = std::str::from_utf8(&data[..end]).unwrap();
    header
        .split_whitespace()
        .skip(2)
        .map(|n| n.parse().unwrap())
        .collect()
}

fn counts(a: &Aiger) -> Vec<usize> {
    vec![
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.ands.len(),
        a.bad.len(),
        a.constraints.len(),
        a.justice.len(),
        a.fairness.len(),
    ]
}

#[test]
fn corpus_files_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/aiger");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "skipping corpus_files_parse: {} does not exist",
            dir.display()
        );
        return;
    };
    let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    // A debug build is slow on the largest files; the round trip of those is left to release
    // builds.
    let round_trip_limit = if cfg!(debug_assertions) {
        2 << 20
    } else {
        usize::MAX
    };
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(path).unwrap();
        let start = Instant::now();
        let parsed = parse(&data);
        let elapsed = start.elapsed();
        if elapsed > slowest.0 {
            slowest = (elapsed, name.clone());
        }
        let a = match parsed {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let header = header_counts(&data);
        let parsed_counts = counts(&a);
        if parsed_counts[..header.len()] != header[..] {
            failures.push(format!(
                "{name}: header {header:?}, parsed {parsed_counts:?}"
            ));
        }
        if data.len() > round_trip_limit {
            continue;
        }
        let mut binary = Vec::new();
        write_binary(&a, &mut binary).unwrap();
        match parse(&binary) {
            Ok(b) => {
                let justice = |x: &Aiger| x.justice.iter().map(Vec::len).collect::<Vec<_>>();
                if counts(&b) != parsed_counts
                    || justice(&b) != justice(&a)
                    || b.symbols != a.symbols
                    || b.comments != a.comments
                {
                    failures.push(format!("{name}: binary round trip changed the sections"));
                }
            }
            Err(e) => failures.push(format!("{name}: written binary does not parse: {e}")),
        }
    }
    eprintln!(
        "{} corpus files; slowest parse {:?} ({})",
        paths.len(),
        slowest.0,
        slowest.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
