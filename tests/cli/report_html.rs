//! `report.html`: one self-contained page (charts inline, nothing fetched),
//! checked in a real headless Chromium: the page shows the recommendation,
//! both charts are drawn, and a screenshot is not blank. Where no Chromium
//! is installed that one test says so and passes (`.ci/run` installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::shardplan;

/// `report --scenario viral-reel` into `dir`: the page's text.
fn html_report(dir: &Path) -> String {
    shardplan()
        .args(["report", "-q", "--seconds", "300", "-o"])
        .arg(dir)
        .assert()
        .success();
    std::fs::read_to_string(dir.join("report.html")).unwrap()
}

#[test]
fn the_page_holds_its_charts_and_fetches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let html = html_report(&dir.path().join("r"));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<title>Sharded counter capacity report: viral-reel</title>"));
    // Both charts inline, none linked; no address outside the page.
    assert_eq!(html.matches("<svg").count(), 2, "two charts inline");
    assert!(
        !html.contains("<img") && !html.contains(".svg\""),
        "no linked chart"
    );
    for remote in ["http://", "https://", "src=\"//", "@import", "url("] {
        let outside = html
            .match_indices(remote)
            .any(|(i, _)| !html[i..].starts_with("http://www.w3.org/2000/svg"));
        assert!(!outside, "the page names {remote}");
    }
    // The recommendation opens it, as the Markdown's does.
    let body = &html[html.find("<body>").unwrap()..];
    let first = body
        .find("Recommendation: 20 shards")
        .expect("the recommendation");
    assert!(first < body.find("<h2>").unwrap());
}

/// Chromium, by the names Debian and others install it under.
fn browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|p| p.is_file())
}

/// Runs the browser headless on `page` with `args`, within a minute; its
/// standard output.
fn headless(browser: &Path, page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = String::new();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let _ = stdout.read_to_string(&mut out);
        out
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{} did not finish within 60 s", browser.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// The share of the PNG's pixels that are not the page's white.
fn inked_share(png: &Path) -> f64 {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    let inked = pixels
        .chunks(channels)
        .filter(|p| p.iter().take(3).any(|&c| c < 200))
        .count();
    inked as f64 / (pixels.len() / channels) as f64
}

#[test]
fn the_page_renders_in_a_real_browser() {
    let Some(browser) = browser() else {
        eprintln!(
            "skipped: no Chromium on PATH (chromium, chromium-browser, google-chrome); \
             .ci/run installs Debian's chromium package"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("r");
    html_report(&folder);
    let page = folder.join("report.html");
    // What the browser built from the page: the text and both charts.
    let dom = headless(&browser, &page, &["--dump-dom"]);
    assert!(dom.contains("Recommendation: 20 shards"), "{dom:.400}");
    assert_eq!(dom.matches("<svg").count(), 2);
    assert!(dom.contains("Over-cap risk by shard count"));
    // What it drew: a screenshot of the first screenful, far from blank
    // (text, table rules and a chart's bars put ink on a few percent of a
    // page; a blank or failed render has none).
    let shot = dir.path().join("shot.png");
    headless(
        &browser,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1000,1400",
        ],
    );
    let share = inked_share(&shot);
    assert!(share > 0.01, "the screenshot is {:.4} ink", share);
    // Each chart alone, rendered to PNG by the browser: drawn, not blank.
    for chart in ["risk.svg", "busiest.svg"] {
        let png = dir.path().join(format!("{chart}.png"));
        let svg = folder.join(chart);
        headless(
            &browser,
            &svg,
            &[
                &format!("--screenshot={}", png.display()),
                "--window-size=800,520",
            ],
        );
        let share = inked_share(&png);
        assert!(share > 0.01, "{chart} is {share:.4} ink");
    }
}
