//! `shardplan completions SHELL` and `shardplan man`: generated from the
//! same clap definitions as the parser, so they never go stale.

use std::io::Write;

use crate::config::options::{CompletionsOptions, ManOptions, SchemaOptions};

pub fn completions(o: CompletionsOptions) -> anyhow::Result<()> {
    let script = crate::cli::complete::registration(o.shell)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}

/// Escapes text for roff: backslashes and hyphens, and a leading dot or
/// quote that would read as a request.
fn roff_escape(line: &str) -> String {
    let text = line.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}

/// The command's after-help as man sections: each paragraph whose first
/// line is a heading (`Examples:`, `Exit status:`, `Environment:`,
/// `Install:`) becomes that section, its lines kept as typed (examples
/// must not be refilled); other paragraphs go under NOTES.
fn after_help_sections(cmd: &clap::Command) -> String {
    // The long form: the top page's exit status and environment are in
    // `--help` only (`-h` ends with the examples).
    let after = cmd.get_after_long_help().or(cmd.get_after_help());
    let Some(text) = after.map(|t| t.to_string()) else {
        return String::new();
    };
    let mut out = String::new();
    for para in text.split("\n\n") {
        let mut lines = para.lines();
        let first = lines.next().unwrap_or("").trim();
        match first.strip_suffix(':') {
            Some(heading) => {
                out.push_str(&format!(".SH {}\n.nf\n", heading.to_uppercase()));
                for line in lines {
                    out.push_str(&roff_escape(line));
                    out.push('\n');
                }
                out.push_str(".fi\n");
            }
            None => {
                out.push_str(".SH NOTES\n");
                out.push_str(&roff_escape(&para.replace('\n', " ")));
                out.push('\n');
            }
        }
    }
    out
}

/// One page's roff: clap_mangen's sections, with the after-help as real
/// EXAMPLES (and EXIT STATUS, ENVIRONMENT) sections before VERSION.
fn page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(cmd.clone())
        .source(format!("shardplan {}", env!("CARGO_PKG_VERSION")))
        .manual("shardplan manual");
    type Render = fn(&clap_mangen::Man, &mut dyn Write) -> std::io::Result<()>;
    // Each part opens with roff's apostrophe preamble: the title keeps it,
    // the others drop it.
    let part = |render: Render| -> std::io::Result<String> {
        let mut bytes = Vec::new();
        render(&man, &mut bytes)?;
        Ok(strip_preamble(&String::from_utf8_lossy(&bytes)))
    };
    let mut title = Vec::new();
    man.render_title(&mut title)?;
    let mut roff = String::from_utf8_lossy(&title).into_owned();
    roff += &part(clap_mangen::Man::render_name_section)?;
    roff += &part(clap_mangen::Man::render_synopsis_section)?;
    roff += &part(clap_mangen::Man::render_description_section)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        roff += &part(clap_mangen::Man::render_options_section)?;
    }
    if cmd.get_subcommands().any(|c| !c.is_hide_set()) {
        roff += &part(clap_mangen::Man::render_subcommands_section)?;
    }
    roff += &after_help_sections(&cmd);
    if cmd.get_version().is_some() {
        roff += &part(clap_mangen::Man::render_version_section)?;
    }
    Ok(roff.into_bytes())
}

/// A rendered part without roff's two-line apostrophe preamble.
fn strip_preamble(text: &str) -> String {
    let mut lines = text.splitn(3, '\n');
    match (lines.next(), lines.next(), lines.next()) {
        (Some(a), Some(b), Some(rest)) if a.starts_with(".ie") && b.starts_with(".el") => {
            rest.to_string()
        }
        _ => text.to_string(),
    }
}

/// `shardplan man [COMMAND]` prints one page; `man -o DIR` writes them all.
pub fn man(o: ManOptions) -> anyhow::Result<()> {
    let (pages, folder) = match o {
        ManOptions::Page(cmd) => {
            let roff = page(*cmd)?;
            let mut out = std::io::stdout().lock();
            out.write_all(&roff)?;
            out.flush()?;
            return Ok(());
        }
        ManOptions::Folder(pages, folder) => (pages, folder),
    };
    // Every page is rendered before any is written.
    let mut rendered = Vec::with_capacity(pages.len());
    for (cmd, name) in pages {
        rendered.push((name, page(cmd)?));
    }
    let files: Vec<(&str, &[u8])> = rendered
        .iter()
        .map(|(name, roff)| (name.as_str(), roff.as_slice()))
        .collect();
    folder.commit(&files)
}

/// `shardplan schema COMMAND`: the JSON Schema of its `--format json`
/// document (the file `schemas/COMMAND.schema.json` holds).
pub fn schema(o: SchemaOptions) -> anyhow::Result<()> {
    let text = crate::views::schema::file_text(&o.command)
        .expect("clap accepts only the commands with a schema");
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
