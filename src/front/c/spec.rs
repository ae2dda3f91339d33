//! SV-COMP property files (`--spec FILE.prp`): what a C program is checked for.
//!
//! SV-COMP gives each task its property as a `CHECK( init(main()), LTL(...) )` line. Warden
//! checks one kind, `unreach-call`: `LTL(G ! call(F()))`, no run from `main` calls `F`. Every
//! other property of the competition (memory safety, overflows, termination, data races)
//! is named and refused as unsupported, never checked as something else.

/// The property a file asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `G ! call(function())`: no call of `function` is reachable from `main`.
    UnreachCall { function: String },
}

/// Why a property file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// Not a property in SV-COMP's syntax (at `line`, 1-based), or none at all.
    Syntax { line: usize, message: String },
    /// A property of SV-COMP that warden does not check (named by its category).
    Unsupported { line: usize, property: String },
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Syntax { line, message } => write!(f, "line {line}: {message}"),
            SpecError::Unsupported { line, property } => write!(
                f,
                "line {line}: unsupported property {property} (warden checks unreach-call only)"
            ),
        }
    }
}

impl Spec {
    /// The SV-COMP name of the property (the one a `false(...)` verdict names).
    pub fn category(&self) -> &'static str {
        match self {
            Spec::UnreachCall { .. } => "unreach-call",
        }
    }

    /// The function whose calls are the error.
    pub fn error_function(&self) -> &str {
        match self {
            Spec::UnreachCall { function } => function,
        }
    }

    /// The property as the file states it (what a YAML witness's `specification` repeats).
    pub fn text(&self) -> String {
        format!(
            "CHECK( init(main()), LTL(G ! call({}())) )",
            self.error_function()
        )
    }

    /// Reads a property file: exactly one `CHECK` line (blank lines and `//` comments aside).
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let mut found = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let row = raw.split("//").next().unwrap_or("").trim();
            if row.is_empty() {
                continue;
            }
            if found.is_some() {
                return Err(SpecError::Unsupported {
                    line,
                    property: "with several CHECK lines (memory safety?)".into(),
                });
            }
            found = Some(check_line(row, line)?);
        }
        found.ok_or(SpecError::Syntax {
            line: 1,
            message: "no CHECK( init(main()), LTL(...) ) line".into(),
        })
    }
}

/// One `CHECK( init(main()), LTL(formula) )` line.
fn check_line(row: &str, line: usize) -> Result<Spec, SpecError> {
    let compact: String = row.chars().filter(|c| !c.is_whitespace()).collect();
    let syntax = |message: &str| SpecError::Syntax {
        line,
        message: message.into(),
    };
    let body = compact
        .strip_prefix("CHECK(")
        .and_then(|b| b.strip_suffix(')'))
        .ok_or_else(|| syntax("expected CHECK( init(main()), LTL(...) )"))?;
    let formula = body
        .strip_prefix("init(main()),LTL(")
        .and_then(|b| b.strip_suffix(')'))
        .ok_or_else(|| syntax("expected init(main()) and then LTL(...)"))?;
    if let Some(function) = formula
        .strip_prefix("G!call(")
        .and_then(|f| f.strip_suffix("())"))
    {
        let identifier = !function.is_empty()
            && !function.starts_with(|c: char| c.is_ascii_digit())
            && function
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        return match identifier {
            true => Ok(Spec::UnreachCall {
                function: function.to_owned(),
            }),
            false => Err(syntax("expected a function name in call(...())")),
        };
    }
    let property = match formula {
        "Gvalid-free" | "Gvalid-deref" | "Gvalid-memtrack" => "valid-memsafety",
        "Gvalid-memcleanup" => "valid-memcleanup",
        "G!overflow" => "no-overflow",
        "Fend" => "termination",
        "G!data-race" => "no-data-race",
        _ => {
            return Err(syntax(
                "expected LTL(G ! call(F())) or another SV-COMP property",
            ))
        }
    };
    Err(SpecError::Unsupported {
        line,
        property: property.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_unreach_call_with_any_spacing_and_function() {
        let spec = Spec::parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\n").unwrap();
        assert_eq!(spec.error_function(), "reach_error");
        assert_eq!(spec.category(), "unreach-call");
        let other = Spec::parse("// task 7\n\nCHECK(init(main()),LTL(G !call(fail())))").unwrap();
        assert_eq!(other.error_function(), "fail");
        assert_eq!(Spec::parse(&other.text()).unwrap(), other);
    }

    #[test]
    fn refuses_other_properties_by_name_and_bad_lines_by_position() {
        let overflow = Spec::parse("CHECK( init(main()), LTL(G ! overflow) )").unwrap_err();
        assert!(overflow.to_string().contains("no-overflow"), "{overflow}");
        let memsafety = "CHECK( init(main()), LTL(G valid-free) )\n\
                         CHECK( init(main()), LTL(G valid-deref) )\n";
        let memsafety = Spec::parse(memsafety).unwrap_err();
        assert!(matches!(memsafety, SpecError::Unsupported { line: 1, .. }));
        assert!(
            memsafety.to_string().contains("valid-memsafety"),
            "{memsafety}"
        );
        let twice = "CHECK( init(main()), LTL(G ! call(f())) )\n".repeat(2);
        assert!(matches!(
            Spec::parse(&twice),
            Err(SpecError::Unsupported { line: 2, .. })
        ));
        let termination = Spec::parse("CHECK( init(main()), LTL(F end) )").unwrap_err();
        assert!(termination.to_string().contains("termination"));
        assert!(matches!(
            Spec::parse("\nCHECK( init(f()), LTL(G ! call(reach_error())) )"),
            Err(SpecError::Syntax { line: 2, .. })
        ));
        assert!(matches!(
            Spec::parse("CHECK( init(main()), LTL(G ! call(1x())) )"),
            Err(SpecError::Syntax { line: 1, .. })
        ));
        assert!(matches!(Spec::parse(""), Err(SpecError::Syntax { .. })));
    }
}
