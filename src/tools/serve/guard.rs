//! Which requests `thoat serve` answers: a guard against DNS rebinding and cross-site requests.
//!
//! A web page the user visits can make the browser send requests to `127.0.0.1:8080`. Two
//! ways in, two checks:
//! - **DNS rebinding**: the page's own name (`evil.example`) is made to resolve to this machine,
//!   so its scripts read and drive the API as if same-origin. The browser still sends
//!   `Host: evil.example:8080`: only host names the server knows are answered — IP literals
//!   (a rebinding needs a name), `localhost`, the name it listens on and `--allow-host` names.
//! - **Cross-site requests**: a page elsewhere posts a move or starts a long engine think.
//!   Browsers name the page in `Origin` on every cross-origin request that can change state
//!   (POST, including a plain HTML form): when present it must be the origin of the `Host`
//!   itself, i.e. the board's own page. Clients that are not browsers (curl, tests) send no
//!   `Origin` and are answered.

use std::net::IpAddr;

/// The host names a server answers to, besides IP literals.
#[derive(Debug, Clone)]
pub struct Guard {
    names: Vec<String>,
}

impl Guard {
    /// The guard of a server listening on `listen_host` (a name or an address), answering also
    /// to the names in `also_allowed`.
    pub fn new(listen_host: &str, also_allowed: &[String]) -> Guard {
        let mut names = vec!["localhost".to_string()];
        for name in std::iter::once(listen_host).chain(also_allowed.iter().map(String::as_str)) {
            let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
        Guard { names }
    }

    /// `Ok` when a request with these `Host` and `Origin` headers may be answered; otherwise
    /// the reason, for a 403.
    pub fn check(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), String> {
        let host = host
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .ok_or("the request has no Host header")?;
        let name =
            host_name(host).ok_or_else(|| format!("malformed Host '{}'", host.escape_debug()))?;
        let known = name.parse::<IpAddr>().is_ok()
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(name));
        if !known {
            return Err(format!(
                "host '{}' is not one this server answers to (start it with --allow-host {} to allow it)",
                name.escape_debug(),
                name.escape_debug()
            ));
        }
        if let Some(origin) = origin.map(str::trim) {
            let same = origin.strip_prefix("http://").is_some_and(|authority| {
                authority.trim_end_matches('/').eq_ignore_ascii_case(host)
            });
            if !same {
                return Err(format!(
                    "cross-origin request from '{}' refused",
                    origin.escape_debug()
                ));
            }
        }
        Ok(())
    }
}

/// The name or address of a `Host` header without its port: `localhost:8080` -> `localhost`,
/// `[::1]:8080` -> `::1`. `None` when it is not of that form.
fn host_name(host: &str) -> Option<&str> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        (name, after.strip_prefix(':'))
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let name = name.trim_end_matches('.');
    let name_ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':'));
    (port_ok && name_ok).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> Guard {
        Guard::new("127.0.0.1", &[])
    }

    /// The board's own requests pass; DNS-rebinding names and foreign origins are refused.
    #[test]
    fn own_requests_pass_and_rebinding_names_and_foreign_origins_are_refused() {
        let guard = local();
        for (host, origin, passes) in [
            ("127.0.0.1:8080", None, true),
            ("127.0.0.1:8080", Some("http://127.0.0.1:8080"), true),
            ("localhost:8080", Some("http://localhost:8080"), true),
            ("LOCALHOST", None, true),
            ("[::1]:9000", Some("http://[::1]:9000"), true),
            ("192.168.1.5:8080", Some("http://192.168.1.5:8080"), true),
            ("evil.example:8080", None, false),
            ("evil.example:8080", Some("http://evil.example:8080"), false),
            ("localhost.evil.example", None, false),
            ("127.0.0.1:8080", Some("http://evil.example"), false),
            ("127.0.0.1:8080", Some("https://127.0.0.1:8080"), false),
            ("127.0.0.1:8080", Some("http://127.0.0.1:8081"), false),
            ("127.0.0.1:8080", Some("null"), false),
            ("", None, false),
            ("127.0.0.1:80x", None, false),
            ("a b:8080", None, false),
        ] {
            let verdict = guard.check(Some(host), origin);
            assert_eq!(verdict.is_ok(), passes, "{host} {origin:?}: {verdict:?}");
        }
        assert!(guard.check(None, None).is_err());
    }

    #[test]
    fn the_listening_name_and_allowed_names_pass() {
        let guard = Guard::new("board.lan", &["Mybox.Local.".to_string()]);
        assert_eq!(guard.check(Some("board.lan:8080"), None), Ok(()));
        assert_eq!(
            guard.check(Some("mybox.local:8080"), Some("http://mybox.local:8080")),
            Ok(())
        );
        assert!(guard.check(Some("other.lan:8080"), None).is_err());
    }
}
