//! The design doc as one self-contained HTML page (`report.html`): the
//! Markdown report rendered by pulldown-cmark, each chart's SVG inline
//! where the Markdown links to its file, and a style sheet that reads well
//! on screen and printed. Nothing is fetched from the network.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// The page's file name inside the report folder.
pub const HTML_FILE: &str = "report.html";

/// Screen and print: a readable column, tables with rules, charts that
/// scale to the page and never split across printed pages.
const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:60rem;margin:2rem auto;\
padding:0 1rem;line-height:1.5;color:#1a1a1a}\
h1{font-size:1.7rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}\
th,td{border:1px solid #bbb;padding:.25rem .5rem;text-align:left;vertical-align:top}\
th{background:#f0f0f0}code{background:#f4f4f4;padding:0 .2rem}\
blockquote{border-left:4px solid #c33;margin:1rem 0;padding:.2rem 1rem;background:#fdf3f3}\
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}\
@media print{body{max-width:none;margin:0}figure,table{break-inside:avoid}a{color:inherit}}";

/// `md` (the Markdown report) as one HTML page titled `title`, each image
/// whose link is one of `charts` (file name, SVG) replaced by that SVG.
pub fn page(md: &str, title: &str, charts: &[(&str, &str)]) -> String {
    let mut body = String::new();
    html::push_html(&mut body, inline_charts(md, charts).into_iter());
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// The Markdown's events, each linked chart as its inline SVG in a figure
/// with the image's text as the caption.
fn inline_charts<'a>(md: &'a str, charts: &[(&str, &'a str)]) -> Vec<Event<'a>> {
    let mut out = Vec::new();
    // Inside a replaced image: its alt text, the caption.
    let mut caption: Option<String> = None;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match (&mut caption, event) {
            (None, Event::Start(Tag::Image { dest_url, .. })) => {
                match charts.iter().find(|(file, _)| dest_url.as_ref() == *file) {
                    Some((_, svg)) => {
                        out.push(Event::Html(CowStr::Borrowed("<figure>\n")));
                        out.push(Event::Html(CowStr::Borrowed(svg)));
                        caption = Some(String::new());
                    }
                    None => out.push(Event::Start(Tag::Image {
                        link_type: pulldown_cmark::LinkType::Inline,
                        dest_url,
                        title: CowStr::Borrowed(""),
                        id: CowStr::Borrowed(""),
                    })),
                }
            }
            (Some(text), Event::Text(t) | Event::Code(t) | Event::InlineHtml(t)) => {
                text.push_str(&t)
            }
            (Some(text), Event::End(TagEnd::Image)) => {
                out.push(Event::Html(CowStr::from(format!(
                    "\n<figcaption>{}</figcaption>\n</figure>\n",
                    escape(text)
                ))));
                caption = None;
            }
            (Some(_), _) => {}
            (None, event) => out.push(event),
        }
    }
    out
}

/// `text` safe inside HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    pulldown_cmark_escape::escape_html(&mut out, text).expect("writing to a String cannot fail");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_inline_and_tables_are_tables() {
        let md = "# Report: a & b\n\nRecommendation: **20 shards**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\
                  ![Risk <by> count](risk.svg)\n\n![elsewhere](other.png)\n";
        let svg = "<svg width=\"10\" height=\"10\"><rect/></svg>";
        let p = page(md, "Report: a & b", &[("risk.svg", svg)]);
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<title>Report: a &amp; b</title>"));
        assert!(p.contains("<strong>20 shards</strong>"));
        assert!(p.contains("<table>") && p.contains("<td>2</td>"));
        assert!(p.contains(&format!("<figure>\n{svg}")));
        assert!(p.contains("<figcaption>Risk &lt;by&gt; count</figcaption>"));
        // A chart the report does not hold stays a link.
        assert!(p.contains("<img src=\"other.png\""));
        assert!(!p.contains("risk.svg"));
    }
}
