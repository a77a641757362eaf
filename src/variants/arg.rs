//! `--variant` on the command line: clap parses a [`Variant`] as `UCI_Variant` does
//! (case-insensitive), and its help lists the games from [`Variant::ALL`].

use super::Variant;
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser, ValueParserFactory};

/// The clap parser of [`Variant`] arguments.
#[derive(Clone, Copy, Debug, Default)]
pub struct VariantParser;

impl TypedValueParser for VariantParser {
    type Value = Variant;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Variant, clap::Error> {
        StringValueParser::new()
            .try_map(|name| Variant::from_name(&name))
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Variant::ALL
                .into_iter()
                .map(|v| PossibleValue::new(v.name())),
        ))
    }
}

impl ValueParserFactory for Variant {
    type Parser = VariantParser;

    fn value_parser() -> VariantParser {
        VariantParser
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Args {
        #[arg(long, default_value_t)]
        variant: Variant,
    }

    #[test]
    fn parses_any_case_and_lists_every_game() {
        let args = Args::try_parse_from(["x", "--variant", "SKAK"]).unwrap();
        assert_eq!(args.variant, Variant::Skak);
        assert_eq!(Args::try_parse_from(["x"]).unwrap().variant, Variant::Chess);
        assert!(Args::try_parse_from(["x", "--variant", "xiangqi"]).is_err());
        let help = <Args as clap::CommandFactory>::command().render_long_help();
        let help = help.to_string();
        for name in Variant::names() {
            assert!(help.contains(name), "{help}");
        }
    }
}
