/**
 * What redaction matches (a data table): the credential key words, the
 * credential value shapes and the high-entropy rule as the preamble states
 * them. `redact.ts` applies them.
 *
 * @module
 */

/** The replacement written instead of a secret. */
export const REDACTED = "[REDACTED]";

/**
 * Key names are compared after lowercasing and removing everything but
 * letters and digits, and are secret when they contain one of these words
 * (`X-Admin-Key`, `db_password`, `session_id`, `auth`).
 */
export const SECRET_KEY_WORDS: readonly string[] = [
  "key",
  "secret",
  "token",
  "password",
  "passwd",
  "pwd",
  "auth",
  "credential",
  "session",
  "cookie",
  "signature",
];

/**
 * Names never redacted by name (only by value shape): response headers that
 * carry a challenge, not a credential.
 */
export const DEFAULT_ALLOWED_FIELDS: readonly string[] = ["www-authenticate", "proxy-authenticate"];

/** A value shape that is always a credential, with the name the preamble shows. */
export interface TokenShape {
  /** How the preamble names it. */
  label: string;
  /** A global regular expression matching it. */
  pattern: RegExp;
}

const CREDENTIAL_WORD = "(?:api[-_]?key|access[-_]?key|secret|token|password|passwd|pwd|" +
  "auth|credential|session|cookie|signature|accountkey|sharedaccesskey|sig)";

/** Credential shapes, found anywhere inside a string (the order matters: longest first). */
export const TOKEN_SHAPES: readonly TokenShape[] = [
  {
    label: "PEM private keys",
    pattern: /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)/g,
  },
  {
    label: "`Bearer …`/`Basic …` credentials",
    pattern:
      /\b(?:[Bb]earer|BEARER|Basic|BASIC)\s+(?=[A-Za-z0-9._~+/=-]*[0-9A-Z._~+/=-])[A-Za-z0-9._~+/=-]{8,}/g,
  },
  { label: "JWTs", pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
  {
    label: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})/g,
  },
  { label: "GitLab tokens (`glpat-`…)", pattern: /\bgl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{16,}/g },
  {
    label: "Stripe keys (`sk_live_`, `sk_test_`, `rk_`, `pk_`, `whsec_`)",
    pattern: /\b(?:(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9]{16,})/g,
  },
  { label: "OpenAI/Anthropic-style keys (`sk-`…)", pattern: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { label: "Slack tokens (`xox?-`, `xapp-`)", pattern: /\bx(?:ox[a-z]|app)-[A-Za-z0-9-]{8,}/g },
  { label: "Slack webhooks", pattern: /hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g },
  {
    label: "AWS access key IDs (`AKIA`, `ASIA`, …)",
    pattern: /\b(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
  },
  { label: "Google API keys (`AIza`…)", pattern: /\bAIza[0-9A-Za-z_-]{30,}/g },
  { label: "npm tokens (`npm_`)", pattern: /\bnpm_[A-Za-z0-9]{30,}/g },
  { label: "PyPI tokens (`pypi-`)", pattern: /\bpypi-[A-Za-z0-9_-]{30,}/g },
  { label: "Hugging Face tokens (`hf_`)", pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { label: "SendGrid keys (`SG.`)", pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { label: "Shopify tokens (`shpat_`…)", pattern: /\bshp(?:at|ss|ca|pa)_[A-Fa-f0-9]{32}\b/g },
  { label: "DigitalOcean tokens (`dop_v1_`…)", pattern: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
  { label: "Twilio API keys (`SK`…)", pattern: /\bSK[0-9a-fA-F]{32}\b/g },
  { label: "Mailgun keys (`key-`…)", pattern: /\bkey-[0-9a-z]{32}\b/g },
  { label: "Telegram bot tokens", pattern: /\b\d{6,12}:AA[A-Za-z0-9_-]{30,}/g },
  { label: "Firebase server keys", pattern: /\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{20,}/g },
  {
    label: "passwords in URLs (`scheme://user:password@`)",
    pattern: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+(?=@)/gi,
  },
  {
    label: "`name=value` / `name: value` pairs whose name is credential-like (form bodies, " +
      "connection strings, query strings in text)",
    pattern: new RegExp(
      `(?<=\\b[A-Za-z0-9_.-]*${CREDENTIAL_WORD}[A-Za-z0-9_.-]*["']?\\s*[=:]\\s*["']?)` +
        `(?!\\[REDACTED\\])` +
        `[^\\s&;,"'<>]{4,}(?=[\\s&;,"')]|$)`,
      "gi",
    ),
  },
];

/** The high-entropy rule, as the preamble states it. */
export const HIGH_ENTROPY_RULE = "strings of 20 or more letters, digits and `+/=_-.~` that mix " +
  "upper case, lower case and digits with a Shannon entropy of at least 0.7 × log2(length) " +
  "bits per character (random keys), unless they decode from base64 to printable text " +
  "(pagination cursors); hexadecimal strings and UUIDs are identifiers, not matched";
