//! Validate: the compacted request must be a valid request of its format,
//! and must carry every must-persist text (the kernel's limits and every
//! pinned line) verbatim; otherwise the compaction fails loudly.

use crate::audit::{precedence_check, PrecedenceItem};
use crate::error::{Error, Result};
use crate::evidence::{group_header, Pin};
use crate::formats;
use crate::kernel::MissionKernel;
use crate::transcript::Transcript;

use super::rebuild::group_pins;

/// The must-persist items of a rebuild: the kernel's prohibitions and
/// conditions when it is rendered, each pinned group header and line, and
/// each carried user statement (by its input part).
pub fn must_persist(
    kernel: Option<&MissionKernel>,
    pins: &[Pin],
    statements: &[(String, String)],
) -> Vec<(String, String)> {
    let mut out = kernel
        .map(MissionKernel::must_persist_texts)
        .unwrap_or_default();
    for (group, members) in group_pins(pins) {
        out.push((format!("pin-group:{group}"), group_header(group)));
        out.extend(
            members
                .iter()
                .map(|p| (format!("pin:{}", p.record_id), p.line.clone())),
        );
    }
    out.extend(statements.iter().cloned());
    out
}

/// Check `request`, returning the precedence check for the report.
pub fn validate(
    request: &Transcript,
    must_persist: &[(String, String)],
) -> Result<Vec<PrecedenceItem>> {
    formats::check_conversation(request).map_err(|message| Error::InvalidOutput {
        format: request.format.name(),
        message,
    })?;
    let precedence = precedence_check(&request.visible_text(), must_persist);
    let missing: Vec<&str> = precedence
        .iter()
        .filter(|p| !p.present)
        .map(|p| p.item.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Error::PrecedenceViolation {
            count: missing.len(),
            missing: missing.join(", "),
        });
    }
    Ok(precedence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Format, Message, Part, Role};

    fn request(text: &str) -> Transcript {
        Transcript {
            format: Format::Anthropic,
            instructions: vec!["Never delete records.".into()],
            tools: vec![],
            messages: vec![Message::new(Role::User, vec![Part::Text(text.into())])],
            envelope: Default::default(),
            instruction_style: Default::default(),
        }
    }

    #[test]
    fn a_missing_must_persist_text_fails_and_is_named() {
        let must = vec![
            (
                "prohibition:no-delete".to_string(),
                "Never delete records.".to_string(),
            ),
            (
                "pin:R-1".to_string(),
                "- record_id=R-1 status=open".to_string(),
            ),
        ];
        let ok = validate(&request("- record_id=R-1 status=open"), &must).unwrap();
        assert!(ok.iter().all(|p| p.present));
        let err = validate(&request("nothing here"), &must)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("1 must-persist") && err.contains("pin:R-1"),
            "{err}"
        );
    }

    #[test]
    fn an_invalid_conversation_is_an_invalid_output() {
        let mut t = request("hi");
        t.messages
            .push(Message::new(Role::User, vec![Part::Text("again".into())]));
        let err = validate(&t, &[]).unwrap_err();
        assert!(matches!(err, Error::InvalidOutput { .. }), "{err}");
    }
}
