//! Terminal tables drawn with comfy-table, fitted to a width: on a
//! terminal its own, elsewhere [`terminal::FALLBACK_WIDTH`]; long cells wrap
//! inside their column and notes wrap at spaces.

use comfy_table::{presets, ColumnConstraint, ContentArrangement, Table, Width};

use super::terminal::{self, Style};
use super::{Exporter, Report, Section};

/// Tables for a destination drawn in `style`.
pub struct TableExporter {
    /// Width and colour.
    pub style: Style,
}

/// A comfy-table in `preset`: fitted to `width` (cells wrap), or at its
/// natural width when `None` (Markdown).
fn table(preset: &str, width: Option<usize>) -> Table {
    let mut t = Table::new();
    t.load_preset(preset);
    match width {
        Some(w) => {
            t.set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(w).unwrap_or(u16::MAX));
        }
        None => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    t
}

/// The longest word of each column of `cells` (header first).
fn longest_words(cells: &[&[String]]) -> Vec<usize> {
    let columns = cells.iter().map(|r| r.len()).max().unwrap_or(0);
    (0..columns)
        .map(|c| {
            cells
                .iter()
                .filter_map(|r| r.get(c))
                .flat_map(|cell| cell.split_whitespace())
                .map(|w| w.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Each column's widest body cell whole (a row one line), its header by
/// the longest word (a header may wrap).
fn longest_cells(header: &[String], rows: &[Vec<String>]) -> Vec<usize> {
    let mut longest = longest_words(&[header]);
    for r in rows {
        for (c, cell) in r.iter().enumerate() {
            if let Some(w) = longest.get_mut(c) {
                *w = (*w).max(cell.chars().count());
            }
        }
    }
    longest
}

/// The width a table needs to keep every word whole: each column adds one
/// space of padding either side and one border.
fn width_for_whole_words(longest: &[usize]) -> usize {
    longest.iter().map(|w| w + 3).sum::<usize>() + 1
}

/// Keeps words whole: each column is at least as wide as its `longest`
/// word (comfy-table alone splits the space evenly among the long columns
/// and may cut `sharded-buffered` in two), when they fit in `width`.
fn keep_words_whole(t: &mut Table, longest: &[usize], width: usize) {
    if width_for_whole_words(longest) > width {
        return;
    }
    for (c, &w) in longest.iter().enumerate() {
        if let Some(col) = t.column_mut(c) {
            let with_padding = u16::try_from(w + 2).unwrap_or(u16::MAX);
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(with_padding)));
        }
    }
}

/// Draws one section as a comfy-table with the given preset, fitted to
/// `width` when given; a grid keeps its secondary columns when `wide`.
pub(crate) fn draw(section: &Section, preset: &str, width: Option<usize>) -> String {
    draw_styled(section, preset, width, true)
}

fn draw_styled(section: &Section, preset: &str, width: Option<usize>, wide: bool) -> String {
    let prose = |text: &str| match width {
        Some(w) => terminal::wrap(text, w),
        None => text.to_string(),
    };
    match section {
        Section::Pairs { title, rows } => draw_pairs(title, rows, preset, width),
        Section::Grid {
            title,
            header,
            rows,
            secondary,
        } => match width {
            Some(w) if !wide => {
                let (header, rows, left_out) = narrowed(header, rows, secondary, w);
                let mut out = draw_grid(title, &header, &rows, preset, Some(w));
                if !left_out.is_empty() {
                    let note = format!(
                        "Left out to fit {w} columns: {}; --wide shows every column.",
                        left_out.join(", ")
                    );
                    out.push('\n');
                    out.push_str(&prose(&note));
                }
                out
            }
            _ => draw_grid(title, header, rows, preset, width),
        },
        Section::Note(text) | Section::Warning(text) | Section::Failure(text) => prose(text),
    }
}

/// A two-column table of label / value pairs under a title.
fn draw_pairs(
    title: &str,
    rows: &[(String, String)],
    preset: &str,
    width: Option<usize>,
) -> String {
    let mut t = table(preset, width);
    t.set_header(vec![title, ""]);
    for (k, v) in rows {
        t.add_row(vec![k.as_str(), v.as_str()]);
    }
    if let Some(w) = width {
        let cells: Vec<[String; 2]> = std::iter::once([title.to_string(), String::new()])
            .chain(rows.iter().map(|(k, v)| [k.clone(), v.clone()]))
            .collect();
        let cells: Vec<&[String]> = cells.iter().map(|r| r.as_slice()).collect();
        keep_words_whole(&mut t, &longest_words(&cells), w);
    }
    t.to_string()
}

/// The grid without as many of its `secondary` columns (in their order) as
/// it takes for its words to stand whole in `width`; the names of those
/// left out.
fn narrowed(
    header: &[String],
    rows: &[Vec<String>],
    secondary: &[usize],
    width: usize,
) -> (Vec<String>, Vec<Vec<String>>, Vec<String>) {
    // Secondary columns go until every row is one line (each body cell
    // whole), or none is left.
    let fits = |keep: &[bool]| {
        let rows: Vec<Vec<String>> = rows.iter().map(|r| kept(r, keep)).collect();
        width_for_whole_words(&longest_cells(&kept(header, keep), &rows)) <= width
    };
    let mut keep = vec![true; header.len()];
    for &c in secondary {
        if fits(&keep) {
            break;
        }
        if let Some(k) = keep.get_mut(c) {
            *k = false;
        }
    }
    let left_out = header
        .iter()
        .zip(&keep)
        .filter(|(_, k)| !**k)
        .map(|(h, _)| h.clone())
        .collect();
    let rows = rows.iter().map(|r| kept(r, &keep)).collect();
    (kept(header, &keep), rows, left_out)
}

/// The cells of `row` whose column is kept.
fn kept(row: &[String], keep: &[bool]) -> Vec<String> {
    row.iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(c, _)| c.clone())
        .collect()
}

/// A titled grid fitted to `width` when given: drawn one small table per
/// row when even its words cannot stand whole side by side.
fn draw_grid(
    title: &str,
    header: &[String],
    rows: &[Vec<String>],
    preset: &str,
    width: Option<usize>,
) -> String {
    let fit = width.map(|w| {
        let cells: Vec<&[String]> = std::iter::once(header)
            .chain(rows.iter().map(|r| r.as_slice()))
            .collect();
        (w, longest_words(&cells))
    });
    if let Some((w, longest)) = &fit {
        if header.len() > 2 && width_for_whole_words(longest) > *w {
            return expanded(title, header, rows, preset, *w);
        }
    }
    let mut t = table(preset, width);
    t.set_header(header.to_vec());
    for r in rows {
        t.add_row(r.clone());
    }
    if let Some((w, longest)) = &fit {
        // Whole cells where they fit (a row one line), else whole words.
        let cells = longest_cells(header, rows);
        match width_for_whole_words(&cells) <= *w {
            true => keep_words_whole(&mut t, &cells, *w),
            false => keep_words_whole(&mut t, longest, *w),
        }
    }
    let title = match width {
        Some(w) => terminal::wrap(title, w),
        None => title.to_string(),
    };
    format!("{title}\n{t}")
}

/// A grid too wide for `width` even with every word whole, drawn as one
/// small table per row (as psql's expanded display): each column's name
/// beside its value, the first column's as the heading.
fn expanded(
    title: &str,
    header: &[String],
    rows: &[Vec<String>],
    preset: &str,
    width: usize,
) -> String {
    let mut out = vec![terminal::wrap(title, width)];
    for r in rows {
        let pairs: Vec<(String, String)> = header.iter().cloned().zip(r.iter().cloned()).collect();
        let Some(((first_name, first_value), rest)) = pairs.split_first() else {
            continue;
        };
        let section_title = format!("{first_name}: {first_value}");
        let section_rows = rest.to_vec();
        out.push(draw_pairs(
            &section_title,
            &section_rows,
            preset,
            Some(width),
        ));
    }
    out.join("\n")
}

impl Exporter for TableExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        let s = self.style;
        let parts: Vec<String> = report
            .sections()
            .iter()
            .map(|sec| {
                let text = draw_styled(sec, presets::UTF8_FULL_CONDENSED, Some(s.width), s.wide);
                match (sec, s.colour) {
                    (Section::Warning(_), true) => terminal::paint(&text, terminal::YELLOW),
                    (Section::Failure(_), true) => terminal::paint(&text, terminal::RED),
                    _ => text,
                }
            })
            .collect();
        Ok(format!("{}\n", parts.join("\n")).into_bytes())
    }
}
