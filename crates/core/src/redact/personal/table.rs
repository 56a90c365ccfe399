//! Personal values in the cells of a table whose header names the column:
//! a CSV export (`employee,sort_code,account_number`), a Markdown table
//! (`| Assignee | Address |`) or tab-separated output. Each cell is judged
//! as the field of that key would be.

use super::{field_kind, Finding};

pub fn scan(text: &str, out: &mut Vec<Finding>) {
    if !text.contains('\n') || !(text.contains(',') || text.contains('|') || text.contains('\t')) {
        return;
    }
    let mut header: Option<(char, Vec<String>)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let row = line.trim_end_matches(['\n', '\r']);
        let Some(sep) = separator(row) else {
            header = None;
            continue;
        };
        let cells = split(row, sep);
        match &header {
            Some((s, keys)) if *s == sep && keys.len() == cells.len() => {
                for ((cs, ce), key) in cells.iter().zip(keys) {
                    let cell = &row[*cs..*ce];
                    if let Some(kind) = field_kind(key, cell.trim_matches('"')) {
                        let (a, b) = super::trimmed(row, *cs, *ce);
                        let quote = usize::from(row[a..b].starts_with('"'));
                        out.push(Finding {
                            start: start + a + quote,
                            end: start + b,
                            kind,
                        });
                    }
                }
            }
            _ if is_rule(row) => {}
            _ => {
                let keys: Vec<String> = cells
                    .iter()
                    .map(|&(s, e)| row[s..e].trim().trim_matches('"').to_string())
                    .collect();
                let named = keys.iter().any(|k| {
                    field_kind(k, "Jane Doe").is_some()
                        || field_kind(k, "12 Main St").is_some()
                        || field_kind(k, "12345678").is_some()
                });
                header = named.then_some((sep, keys));
            }
        }
    }
}

/// `|---|---|` under a Markdown header.
fn is_rule(row: &str) -> bool {
    row.contains('-')
        && row
            .chars()
            .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

fn separator(row: &str) -> Option<char> {
    ['|', '\t', ',']
        .into_iter()
        .find(|&c| row.matches(c).count() >= 1 && !row.trim().is_empty())
}

/// Cell spans; a Markdown row's outer pipes open and close no cell, and a
/// quoted CSV cell may hold the separator.
fn split(row: &str, sep: char) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in row.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            cells.push((start, i));
            start = i + c.len_utf8();
        }
    }
    cells.push((start, row.len()));
    if sep == '|' {
        if cells
            .first()
            .is_some_and(|&(s, e)| row[s..e].trim().is_empty())
        {
            cells.remove(0);
        }
        if cells
            .last()
            .is_some_and(|&(s, e)| row[s..e].trim().is_empty())
        {
            cells.pop();
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, &str)> {
        super::super::kinds_and_values(text, scan)
    }

    #[test]
    fn cells_under_named_columns() {
        let csv = "employee_id,employee_name,sort_code,account_number\nE-104,Dana Whitfield,20-00-00,31926819\nE-105,ops-bot,,\n";
        assert_eq!(
            found(csv),
            vec![
                ("name", "Dana Whitfield"),
                ("sort_code", "20-00-00"),
                ("bank_account", "31926819")
            ]
        );
        let md = "| Ticket | Assignee | Site address |\n|---|---|---|\n| INC-1 | Priya Raman | 4 Dock Road, Cork |\n";
        assert_eq!(
            found(md),
            vec![("name", "Priya Raman"), ("address", "4 Dock Road, Cork")]
        );
        assert!(found("a,b\n1,2\n").is_empty());
    }
}
