//! Progress bars for long commands (bench, replay, eval-train): one style
//! helper so they look alike; hidden when not wanted.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps drawn with `template` (indicatif syntax), or a
/// hidden one when `show` is false.
pub fn bar(len: u64, template: &str, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b
}
