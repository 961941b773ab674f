//! What every request passes before a page: the Host header (DNS rebinding), the session cookie
//! (or the one-time token of the printed URL, traded for it), and for anything but GET and HEAD a
//! same-origin request (no cross-site form or script can act). And the headers of every answer:
//! no framing, no sniffing, no referrer, scripts and styles from the server only.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::serve::app::App;

/// The session cookie's name.
const COOKIE: &str = "sortkey_session";

/// Lets a request through to its page, or answers it with why not.
pub(crate) async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let mut response = match check(&app, &request) {
        Ok(Pass::Page) => next.run(request).await,
        Ok(Pass::Trade) => trade(&app, &request),
        Err((status, why)) => refusal(status, why),
    };
    secure(response.headers_mut());
    response
}

/// What the guard makes of a request.
enum Pass {
    /// To its page.
    Page,
    /// The printed URL's token, to trade for the session cookie.
    Trade,
}

fn check(app: &App, request: &Request) -> Result<Pass, (StatusCode, &'static str)> {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    if !app.answers_to(host) {
        return Err((StatusCode::MISDIRECTED_REQUEST, "this server answers only to its own address (the Host header)"));
    }
    if !matches!(*request.method(), Method::GET | Method::HEAD) && cross_site(app, headers) {
        return Err((StatusCode::FORBIDDEN, "a request from another site; expected one from this server's pages"));
    }
    // A page reads DynamoDB, which costs: another site's page (another port of 127.0.0.1 is the
    // same site, so the cookie goes along) may not make the browser load one, even with GET.
    // The browser says where a request comes from; an asset is free.
    let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    let asset = request.uri().path().starts_with("/assets/") || request.uri().path() == "/favicon.ico";
    if !asset && site.is_some_and(|s| s != "same-origin" && s != "none") {
        return Err((StatusCode::FORBIDDEN, "a page loaded by another site; expected one opened here or by its URL"));
    }
    if session(headers).is_some_and(|s| s == app.session) {
        return Ok(Pass::Page);
    }
    match token(request) {
        Some(t) if t == app.token && !app.token_used.swap(true, Ordering::SeqCst) => Ok(Pass::Trade),
        Some(_) => Err((StatusCode::UNAUTHORIZED, "this token was used already, or is not the server's")),
        None => Err((StatusCode::UNAUTHORIZED, "expected the URL `sortkey serve` printed, with its token")),
    }
}

/// Whether a request that would change something comes from another site: by its
/// `Sec-Fetch-Site` when the browser sends one (set by the browser, never by a page; the
/// `Origin` of a form posted from a page whose referrer policy is `no-referrer`, as these are, is
/// `null`), else by its `Origin`, which must be the server's. A request with neither is no
/// browser's: the session cookie is what it needs.
fn cross_site(app: &App, headers: &HeaderMap) -> bool {
    let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let own = |o: &str| app.hosts.iter().any(|h| o == format!("http://{h}"));
    match (site, origin) {
        (Some(site), _) => site != "same-origin",
        (None, Some(origin)) => !own(origin),
        (None, None) => false,
    }
}

fn session(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
}

fn token(request: &Request) -> Option<&str> {
    request.uri().query()?.split('&').find_map(|pair| pair.strip_prefix("token="))
}

/// The session cookie, and the same page without the token in its address.
fn trade(app: &App, request: &Request) -> Response {
    let cookie = format!("{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/", app.session);
    // The same address without the token.
    let rest: Vec<&str> = request
        .uri()
        .query()
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("token="))
        .collect();
    let path = match rest.as_slice() {
        [] => request.uri().path().to_owned(),
        rest => format!("{}?{}", request.uri().path(), rest.join("&")),
    };
    let mut response = Response::builder().status(StatusCode::SEE_OTHER).body(Body::empty()).unwrap_or_default();
    let headers = response.headers_mut();
    if let (Ok(cookie), Ok(location)) = (HeaderValue::from_str(&cookie), HeaderValue::from_str(&path)) {
        headers.insert(header::SET_COOKIE, cookie);
        headers.insert(header::LOCATION, location);
    }
    response
}

fn refusal(status: StatusCode, why: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], format!("sortkey serve: {why}\n")).into_response()
}

/// The headers of every answer.
fn secure(headers: &mut HeaderMap) {
    let fixed = [
        (
            "content-security-policy",
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
        ),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cache-control", "no-store"),
    ];
    for (name, value) in fixed {
        // An asset says how long it may be kept; a page is never kept.
        if name != "cache-control" || !headers.contains_key(header::CACHE_CONTROL) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
}
