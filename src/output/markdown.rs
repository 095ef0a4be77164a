//! Markdown for design docs: a heading per section and pipe tables.

use comfy_table::presets;

use super::{table::draw, Exporter, Report, Section};

pub struct MarkdownExporter;

/// A table cell as Markdown text: outside a `code span`, `<` before a
/// letter or `/` would open an HTML tag (a key template's `<shard>` would
/// vanish in a viewer), so the word holding it is set in a code span, which
/// shows its text literally (`reel:8841:likes:<shard>` in backticks, not an
/// HTML escape a reader of the raw Markdown sees); `<=` and `< 1` stay as
/// typed, and code spans are left alone. A `|` would end the cell, inside a
/// code span too (GitHub's tables split on it first), so it is written `\|`
/// everywhere.
fn cell(text: &str) -> String {
    let opens_tag = |word: &str| {
        let mut chars = word.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '<'
                && chars
                    .peek()
                    .is_some_and(|n| n.is_ascii_alphabetic() || *n == '/')
            {
                return true;
            }
        }
        false
    };
    let mut in_code = false;
    let words: Vec<String> = text
        .split(' ')
        .map(|word| {
            let ticks = word.matches('`').count();
            let quoted = !in_code && ticks == 0 && opens_tag(word);
            in_code ^= ticks % 2 == 1;
            match quoted {
                true => format!("`{word}`"),
                false => word.to_string(),
            }
        })
        .collect();
    words.join(" ").replace('|', "\\|")
}

fn cells(row: &[String]) -> Vec<String> {
    row.iter().map(|c| cell(c)).collect()
}

impl Exporter for MarkdownExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        Ok(sections(&report.sections(), Headings::All).into_bytes())
    }
}

/// Which sections get their `### title` heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headings {
    /// Every titled section.
    All,
    /// All but the first: a page puts the sections under a heading of its
    /// own, which the first section's would only repeat.
    AfterFirst,
}

/// `sections` as Markdown: a heading per titled section (as `headings`
/// says), pipe tables, quoted notes; one newline at the end.
pub fn sections(sections: &[Section], headings: Headings) -> String {
    let mut out = String::new();
    for (i, section) in sections.iter().enumerate() {
        let heading = |out: &mut String, title: &str| {
            if i > 0 || headings == Headings::All {
                out.push_str(&format!("### {title}\n\n"));
            }
        };
        match section {
            Section::Pairs { title, rows } => {
                heading(&mut out, title);
                // The heading carries the title; the table's header row
                // just names its two columns.
                let grid = Section::Grid {
                    title: String::new(),
                    header: vec!["what".into(), "value".into()],
                    rows: rows.iter().map(|(k, v)| vec![cell(k), cell(v)]).collect(),
                    secondary: Vec::new(),
                };
                out.push_str(draw(&grid, presets::ASCII_MARKDOWN, None).trim_start());
            }
            Section::Grid {
                title,
                header,
                rows,
                ..
            } => {
                heading(&mut out, title);
                let grid = Section::Grid {
                    title: String::new(),
                    header: cells(header),
                    rows: rows.iter().map(|r| cells(r)).collect(),
                    secondary: Vec::new(),
                };
                out.push_str(draw(&grid, presets::ASCII_MARKDOWN, None).trim_start());
            }
            Section::Note(text) | Section::Warning(text) | Section::Failure(text) => {
                out.push_str(&format!("> {}", text.replace('\n', "\n> ")))
            }
        }
        out.push_str("\n\n");
    }
    let mut out = out.trim_end().to_string();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn tags_are_escaped_comparisons_are_not() {
        assert_eq!(cell("reel:8841:likes:<shard>"), "`reel:8841:likes:<shard>`");
        assert_eq!(
            cell("keys like a:<shard> (20)"),
            "keys like `a:<shard>` (20)"
        );
        assert_eq!(cell("P <= 0.01"), "P <= 0.01");
        assert_eq!(cell("a < b"), "a < b");
        assert_eq!(cell("`t:<shard>`"), "`t:<shard>`");
        assert_eq!(cell("`a b` c:<shard>"), "`a b` `c:<shard>`");
        // No HTML survives: the tag's first word is code, the rest plain text.
        assert_eq!(cell("<img src=x>"), "`<img` src=x>");
        assert!(!cell("x <b>y</b>").contains("&lt;"));
    }

    #[test]
    fn pipes_never_end_a_cell() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(cell("`x|y`"), "`x\\|y`");
        // A rendered row keeps its column count.
        let grid = crate::output::Section::Grid {
            title: "t".into(),
            header: vec!["k".into(), "v".into()],
            rows: vec![vec!["a|b".into(), "c".into()]],
            secondary: Vec::new(),
        };
        let md = String::from_utf8(
            crate::output::Exporter::render(
                &super::MarkdownExporter,
                &crate::views::Sections(vec![grid]),
            )
            .unwrap(),
        )
        .unwrap();
        let row = md.lines().find(|l| l.contains("a\\|b")).unwrap();
        // Three unescaped pipes: the row's two edges and the one between its cells.
        assert_eq!(row.replace("\\|", "").matches('|').count(), 3, "{row}");
    }
}
