//! Chat templates: how messages become prompt text, and which tokens end a turn.
//!
//! The template is chosen from the GGUF's `tokenizer.chat_template`: ChatML
//! (`<|im_start|>role\n...<|im_end|>\n`; SmolLM2, Qwen2.5, LFM2), Gemma's
//! `<start_of_turn>` turns, or none at all (a base model such as Gemma 3 270M,
//! which is prompted as plain text to continue). BOS is not part of the
//! rendered text: the tokenizer adds it when the model wants it.

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    System,
    User,
    Assistant,
}

impl Role {
    fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

impl Message {
    pub fn system(text: impl Into<String>) -> Self {
        Self {
            role: Role::System,
            content: text.into(),
        }
    }
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: text.into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatTemplate {
    /// `<|im_start|>{role}\n{content}<|im_end|>\n`, generation prompt `<|im_start|>assistant\n`.
    ChatMl,
    /// `<start_of_turn>{user|model}\n{content}<end_of_turn>\n`; system text is
    /// prepended to the first user turn (Gemma has no system role).
    Gemma,
    /// No chat template: a base model continues plain text.
    Base,
}

impl ChatTemplate {
    /// Pick the template from the GGUF architecture and `tokenizer.chat_template`.
    pub fn detect(_arch: &str, chat_template: Option<&str>) -> Self {
        match chat_template {
            Some(t) if t.contains("<|im_start|>") => ChatTemplate::ChatMl,
            Some(t) if t.contains("<start_of_turn>") => ChatTemplate::Gemma,
            _ => ChatTemplate::Base,
        }
    }

    pub fn is_chat(self) -> bool {
        self != ChatTemplate::Base
    }

    /// Tokens (as text) that end an assistant turn, besides the GGUF eos.
    pub fn end_tokens(self) -> &'static [&'static str] {
        match self {
            ChatTemplate::ChatMl => &["<|im_end|>", "<|endoftext|>"],
            ChatTemplate::Gemma => &["<end_of_turn>"],
            ChatTemplate::Base => &[],
        }
    }

    /// Render `messages`, ending with the assistant's generation prompt.
    /// For [`ChatTemplate::Base`] the contents are joined by blank lines.
    pub fn render(self, messages: &[Message]) -> String {
        let mut out = String::new();
        match self {
            ChatTemplate::ChatMl => {
                for m in messages {
                    out.push_str("<|im_start|>");
                    out.push_str(m.role.as_str());
                    out.push('\n');
                    out.push_str(&m.content);
                    out.push_str("<|im_end|>\n");
                }
                out.push_str("<|im_start|>assistant\n");
            }
            ChatTemplate::Gemma => {
                let mut pending_system = String::new();
                for m in messages {
                    match m.role {
                        Role::System => {
                            pending_system.push_str(&m.content);
                            pending_system.push_str("\n\n");
                        }
                        Role::User | Role::Assistant => {
                            let role = if m.role == Role::User {
                                "user"
                            } else {
                                "model"
                            };
                            out.push_str("<start_of_turn>");
                            out.push_str(role);
                            out.push('\n');
                            out.push_str(&std::mem::take(&mut pending_system));
                            out.push_str(&m.content);
                            out.push_str("<end_of_turn>\n");
                        }
                    }
                }
                out.push_str("<start_of_turn>model\n");
            }
            ChatTemplate::Base => {
                let parts: Vec<&str> = messages.iter().map(|m| m.content.as_str()).collect();
                out = parts.join("\n\n");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chatml_matches_the_gguf_template() {
        let t = ChatTemplate::detect("llama", Some("{{'<|im_start|>' + message['role']}}"));
        assert_eq!(t, ChatTemplate::ChatMl);
        let s = t.render(&[Message::system("S"), Message::user("U")]);
        assert_eq!(
            s,
            "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n"
        );
    }

    #[test]
    fn no_template_is_a_base_model() {
        let t = ChatTemplate::detect("gemma3", None);
        assert_eq!(t, ChatTemplate::Base);
        assert!(!t.is_chat());
        assert_eq!(
            t.render(&[Message::user("a"), Message::user("b")]),
            "a\n\nb"
        );
    }
}
