use super::*;

#[test]
fn anonymous_assertions_are_named_by_their_source_line() {
    let text = "18 bad 17 p_fails ; t.sv:34.9-34.40\n19 bad 17 ; t.sv:36.9-36.50\n\
                20 bad 17 t.sv:6.11-6.24\n21 state 3 u.q ; t.sv:2\n22 bad 17 ; t.sv:36.60-36.70\n";
    let named = name_properties(text, None, &Renamed::new()).unwrap();
    assert_eq!(
        named,
        "18 bad 17 p_fails\n19 bad 17 t.sv:36\n20 bad 17 t.sv:6\n21 state 3 u.q ; t.sv:2\n\
         22 bad 17 t.sv:36#2\n"
    );
}

/// The map Yosys 0.70 wrote for a design with an unlabelled assertion in a submodule,
/// two at the top, a labelled one at the top and one in the submodule.
const MAP: &str = r#"{"version": "Yosys Witness BTOR map", "asserts": [
    ["$flatten\\u_sub.$assert$../../tmp/an.sv:4$3"], ["$assert$an.sv:16$8"],
    ["\\p_x"], ["\\u_sub", "\\p_sub"]], "assumes": [["$assume$an.sv:18$11"]]}"#;

#[test]
fn the_property_map_names_assertions_by_label_or_place() {
    let btor2 = "13 bad 12 an.sv:4.9-4.28\n18 bad 17 an.sv:16.9-16.28\n\
                 38 bad 37 p_x ; an.sv:17.9-17.32\n43 bad 42 u_sub.p_sub ; an.sv:3.9-3.35\n";
    let renamed = vec![("../../tmp/an.sv".to_owned(), "/tmp/an.sv".to_owned())];
    let named = name_properties(btor2, Some(MAP), &renamed).unwrap();
    assert_eq!(
        named,
        "13 bad 12 u_sub:/tmp/an.sv:4\n18 bad 17 an.sv:16\n38 bad 37 p_x\n\
         43 bad 42 u_sub.p_sub\n"
    );
    let short = name_properties("13 bad 12\n", Some(MAP), &renamed).unwrap_err();
    assert!(short.contains("lists 4 assertion(s) for 1 bad"), "{short}");
    // A map without an `asserts` list (Yosys before it had one): the symbols name them.
    let old = r#"{"version": "Yosys Witness BTOR map", "states": []}"#;
    let named = name_properties("13 bad 12 p_a\n", Some(old), &renamed).unwrap();
    assert_eq!(named, "13 bad 12 p_a\n");
    let bad = name_properties("13 bad 12\n", Some(r#"{"asserts": [[]]}"#), &renamed);
    assert!(bad.unwrap_err().contains("not a path"));
}

#[test]
fn clocks_are_the_inputs_the_info_file_names() {
    let btor2 = "2 input 1 clk ; t.sv:1\n3 input 1 inc\n34 uext 1 2 0 u.clk\n";
    let info = "name top\nposedge 34\nposedge 2\n";
    assert_eq!(clock_inputs(btor2, info), vec!["clk".to_string()]);
}

#[test]
fn errors_point_at_the_users_file_and_line() {
    let e = yosys_error(
        Path::new("top.sv"),
        "bad.sv:3: ERROR: syntax error, unexpected TOK_ASSIGN\n",
    );
    assert_eq!(e.path, Path::new("bad.sv"));
    assert_eq!(e.position.as_deref(), Some("line 3"));
    assert!(e.message.contains("syntax error"));
    let e = yosys_error(Path::new("top.sv"), "ERROR: Module `nosuch' not found!\n");
    assert_eq!(e.path, Path::new("top.sv"));
    assert!(
        e.message.contains("top module `nosuch` not found"),
        "{}",
        e.message
    );
}

#[test]
fn only_identifiers_and_plain_words_reach_the_script() {
    assert!(check_identifier("--top", "three_props").is_ok());
    assert!(check_identifier("--top", "_a$1").is_ok());
    for top in [
        "three_props; exec -- touch PWNED",
        "x; write_verilog F",
        "",
        "1a",
        "$a",
    ] {
        let e = check_identifier("--top", top).unwrap_err();
        assert!(e.contains(&format!("{top:?}")), "{e}");
    }
    for ok in ["NO_ASSUME", "W=8", "W=4'd3", "E=", "F=(A+1)"] {
        assert!(check_define(ok).is_ok(), "{ok}");
    }
    for bad in [
        "A B",
        "X=1;",
        "X=\"s\"",
        "X=1 y",
        "X=a#b",
        "1X",
        "X;Y=1",
        "X=a\nexec",
    ] {
        assert!(check_define(bad).is_err(), "{bad}");
    }
}

#[test]
fn file_names_are_quoted_or_refused() {
    let cwd = Some(Path::new("/work/wt"));
    let name = |p: &str| source_name(Path::new(p), cwd);
    assert_eq!(name("a b;c.sv").unwrap(), "a b;c.sv");
    assert_eq!(name("+/x.v").unwrap(), "./+/x.v");
    assert_eq!(name("~/x.v").unwrap(), "./~/x.v");
    assert_eq!(name("/tmp/d/x.sv").unwrap(), "../../tmp/d/x.sv");
    assert_eq!(name("/work/x.sv").unwrap(), "/work/x.sv");
    assert!(name("a\"b.sv").is_err());
    assert!(name("a\nexec touch F.sv").is_err());
    assert!(plain_word(Path::new("/tmp/w x/design.btor2"), cwd).is_err());
    assert_eq!(
        plain_word(Path::new("/tmp/w/design.btor2"), cwd).unwrap(),
        "../../tmp/w/design.btor2"
    );
}
