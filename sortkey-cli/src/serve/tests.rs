//! The routes and guards, in-process: no token, a used token, a foreign Host, a cross-site
//! request, the cookie, each page as HTML and as the command's JSON, markup from the lock shown as
//! text.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use sortkey_core::LockFile;
use tower::ServiceExt;

use super::{App, router};
use crate::layouts::LayoutsDocument;

const LOCK: &str = "RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n\
                    RankKeyV1 = RUN#{score:u64 width=10 desc}#{player:text}\n\
                    X<script>alert(1)</script> = K#{n:u8 width=3}\n\
                    RankKey > RankKeyV1\n";

fn app() -> Arc<App> {
    Arc::new(App {
        client: sortkey_test_server::client("http://127.0.0.1:9"),
        lock: LockFile::parse(LOCK).unwrap(),
        lock_path: "layouts.lock".into(),
        connection: crate::ask::Connection {
            endpoint: Some("http://localhost:8000".into()),
            region: None,
            profile: None,
        },
        tables: vec!["Runs".into()],
        reports: Vec::new(),
        export: None,
        s3: None,
        scans: super::scans::Scans::new(std::env::temp_dir().join("sortkey-serve-tests")),
        checkpoint: None,
        checkpoint_table: None,
        token: "t0ken".into(),
        token_used: AtomicBool::new(false),
        session: "s3ssion".into(),
        hosts: vec!["127.0.0.1:7878".into(), "localhost:7878".into()],
        every_address: false,
    })
}

async fn send(app: &Arc<App>, request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, String) {
    let response = router(app.clone()).oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (parts.status, parts.headers, String::from_utf8_lossy(&bytes).into_owned())
}

fn get(path: &str) -> axum::http::request::Builder {
    Request::builder().uri(path).header(header::HOST, "127.0.0.1:7878")
}

/// The command of a page's footer, its HTML escapes read back.
fn footer_command(html: &str) -> String {
    let footer = html.split("<footer id=\"frame-command\">").nth(1).expect("a footer");
    let code = footer.split("<code>").nth(1).unwrap().split("</code>").next().unwrap();
    let mut text = code.to_owned();
    for (escape, c) in [
        ("&#39;", "'"),
        ("&#34;", "\""),
        ("&#60;", "<"),
        ("&#62;", ">"),
        ("&quot;", "\""),
        ("&lt;", "<"),
        ("&gt;", ">"),
    ] {
        text = text.replace(escape, c);
    }
    text.replace("&#38;", "&").replace("&amp;", "&")
}

/// The words a POSIX shell reads `line` as.
fn shell_words(line: &str) -> Vec<String> {
    shlex::split(line).unwrap_or_else(|| panic!("a shell cannot read {line:?}"))
}

fn with_session(path: &str) -> Request<Body> {
    get(path).header(header::COOKIE, "other=1; sortkey_session=s3ssion").body(Body::empty()).unwrap()
}

#[tokio::test]
async fn the_token_is_traded_once_for_an_http_only_same_site_cookie() {
    let app = app();
    let (status, _, body) = send(&app, get("/").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, headers, _) = send(&app, get("/layouts?token=wrong").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.get(header::SET_COOKIE).is_none());
    let (status, headers, _) = send(&app, get("/layouts?format=json&token=t0ken").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers[header::LOCATION], "/layouts?format=json", "the same page, without the token in its address");
    assert_eq!(headers[header::SET_COOKIE], "sortkey_session=s3ssion; HttpOnly; SameSite=Strict; Path=/");
    // Traded once: the same URL again is refused.
    let (status, _, _) = send(&app, get("/layouts?token=t0ken").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, headers, _) = send(&app, with_session("/layouts")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers["content-security-policy"].to_str().unwrap().contains("default-src 'self'"));
}

#[tokio::test]
async fn a_foreign_host_and_a_cross_site_request_are_refused() {
    let app = app();
    // DNS rebinding: the right cookie, another name in the Host header.
    let request = Request::builder()
        .uri("/layouts")
        .header(header::HOST, "evil.example:7878")
        .header(header::COOKIE, "sortkey_session=s3ssion")
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = send(&app, request).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{body}");
    // A form of another site posting here.
    let request = get("/layouts")
        .method("POST")
        .header(header::COOKIE, "sortkey_session=s3ssion")
        .header(header::ORIGIN, "https://evil.example")
        .header("sec-fetch-site", "cross-site")
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = send(&app, request).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // The same from the server's own page reaches the router, which has no such route.
    let request = get("/layouts")
        .method("POST")
        .header(header::COOKIE, "sortkey_session=s3ssion")
        .header(header::ORIGIN, "http://127.0.0.1:7878")
        .header("sec-fetch-site", "same-origin")
        .body(Body::empty())
        .unwrap();
    let (status, _, _) = send(&app, request).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "no route writes anything");
    // Chromium's form POST from the server's own page (its referrer policy no-referrer): Origin
    // `null`, Sec-Fetch-Site same-origin; and a cross-site one claiming the server's Origin.
    for (site, origin, expected) in [
        ("same-origin", "null", StatusCode::METHOD_NOT_ALLOWED),
        ("cross-site", "http://127.0.0.1:7878", StatusCode::FORBIDDEN),
        ("same-site", "http://localhost:7878", StatusCode::FORBIDDEN),
    ] {
        let request = get("/layouts")
            .method("POST")
            .header(header::COOKIE, "sortkey_session=s3ssion")
            .header(header::ORIGIN, origin)
            .header("sec-fetch-site", site)
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(&app, request).await.0, expected, "{site} {origin}");
    }
    // Without Sec-Fetch-Site, the Origin decides; `null` is no origin of the server's.
    let request = get("/layouts")
        .method("POST")
        .header(header::COOKIE, "sortkey_session=s3ssion")
        .header(header::ORIGIN, "null")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, request).await.0, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn each_page_is_its_command_document_as_html_or_json() {
    let app = app();
    let expected = serde_json::to_value(LayoutsDocument::new(&app.context())).unwrap();
    for path in ["/layouts?format=json"] {
        let (status, headers, body) = send(&app, with_session(path)).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), expected, "{path}");
    }
    let request =
        get("/layouts").header(header::COOKIE, "sortkey_session=s3ssion").header(header::ACCEPT, "application/json");
    let (_, _, body) = send(&app, request.body(Body::empty()).unwrap()).await;
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), expected);
    let (_, _, html) = send(&app, with_session("/layouts")).await;
    assert!(html.contains("RUN#{score:u64 width=12 desc}#{player:text}"), "{html}");
    assert!(html.contains("RankKey &#62; RankKeyV1"), "the versions: {html}");
    assert!(html.contains("$ <code>sortkey layouts --lock layouts.lock --endpoint-url"), "the command: {html}");
    // Text from the lock is text: its markup is escaped, never run.
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("X&#60;script&#62;alert(1)&#60;/script&#62;"), "{html}");
    let (status, headers, css) = send(&app, with_session("/assets/sortkey.css")).await;
    assert_eq!((status, headers[header::CONTENT_TYPE].to_str().unwrap()), (StatusCode::OK, "text/css; charset=utf-8"));
    assert!(css.contains("font-variant-numeric") && !html.contains("<style>"), "styles come from the stylesheet");
    assert_eq!(headers[header::CACHE_CONTROL], "private, max-age=86400", "an asset may be kept");
    let (_, headers, _) = send(&app, with_session("/layouts")).await;
    assert_eq!(headers[header::CACHE_CONTROL], "no-store", "a page is never kept");
    // The overview without a connection: the error on one line, the lock's layouts still shown.
    let (status, _, overview) = send(&app, with_session("/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(overview.contains("cannot describe table Runs") && !overview.contains("<script>"), "{overview}");
    assert!(overview.contains("RankKey &#62; RankKeyV1"), "{overview}");
    let (status, _, _) = send(&app, with_session("/?format=json")).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
}

#[tokio::test]
async fn the_query_page_builds_the_command_expression_or_says_its_refusal() {
    let app = app();
    let path = "/query?layout=RankKey&pk=SEASON%237&op_score=%3E%3D&v_score=1500&format=json";
    let (status, _, body) = send(&app, with_session(path)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    // What `sortkey query --layout RankKey --pk SEASON#7 'score>=1500' -o json` prints (README).
    assert_eq!(doc["format"], "sortkey query 2");
    // The document carries its command lines as the arguments the programs receive.
    assert_eq!(doc["command"][0], "sortkey");
    assert!(doc["command"].as_array().unwrap().iter().any(|a| a == "score>=1500"), "{doc}");
    assert_eq!(doc["aws_command"][3], "--table-name");
    assert_eq!(doc["KeyConditionExpression"], "#pk = :pk AND #sk BETWEEN :sk0 AND :sk1");
    assert_eq!(doc["ExpressionAttributeValues"][":sk1"]["S"], "RUN#999999998499$");
    let (_, _, html) =
        send(&app, with_session("/query?layout=RankKey&pk=SEASON%237&op_score=%3E%3D&v_score=1500")).await;
    assert!(html.contains("RUN#999999998499$") && html.contains("aws dynamodb query --table-name TABLE"), "{html}");
    // The footer's command, pasted into a shell, asks the same: every argument quoted as needed.
    let argv = shell_words(&footer_command(&html));
    let expected = [
        "sortkey",
        "query",
        "--lock",
        "layouts.lock",
        "--endpoint-url",
        "http://localhost:8000",
        "--layout",
        "RankKey",
        "--pk",
        "SEASON#7",
        "score>=1500",
    ];
    assert_eq!(argv, expected, "{html}");
    // A range on the second field with the first free: the library's refusal, as the command says it.
    let (_, _, html) = send(&app, with_session("/query?layout=RankKey&pk=P&op_player=%5E%3D&v_player=p_")).await;
    assert!(html.contains("expected field `score` next"), "{html}");
    let (status, _, body) =
        send(&app, with_session("/query?layout=RankKey&pk=P&op_player=%5E%3D&v_player=p_&format=json")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("expected field `score` next"), "{body}");
    // A text value holding `..` under `=` is that value, not a range (it was written as text and
    // read back as `a..b`); the printed command spells it so that it asks the same.
    let path = "/query?layout=RankKey&pk=P&v_score=7&op_player=%3D&v_player=a..b&format=json";
    let (status, _, body) = send(&app, with_session(path)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["KeyConditionExpression"], "#pk = :pk AND #sk = :sk0", "{doc}");
    assert_eq!(doc["ExpressionAttributeValues"][":sk0"]["S"], "RUN#999999999992#a..b", "{doc}");
    assert!(doc["command"].as_array().unwrap().iter().any(|a| a == "player=:a..b"), "{doc}");
}

#[tokio::test]
async fn the_sort_lab_sorts_values_as_dynamodb_does() {
    let app = app();
    let (_, _, html) = send(&app, with_session("/layouts?values=9,10,240,1500&width=6")).await;
    let lab = html.split("<table id=\"lab\">").nth(1).unwrap().split("</table>").next().unwrap();
    // By hand: "10" < "1500" < "240" < "9", out of order; padded and desc, in order.
    let cells: Vec<&str> = lab.split("<td class=\"key\">").skip(1).map(|c| c.split('<').next().unwrap()).collect();
    assert_eq!(
        cells,
        ["10", "000009", "998499", "1500", "000010", "999759", "240", "000240", "999989", "9", "001500", "999990"]
    );
    assert!(
        lab.contains("unpadded (by hand) ✗ out of order") && lab.contains("padded, width 6, desc ✓ in order"),
        "{lab}"
    );
    let (_, _, html) = send(&app, with_session("/layouts?values=9,-1&width=6")).await;
    assert!(html.contains("expected numbers of 0 or more, found `-1`"), "{html}");
    let (_, _, html) = send(&app, with_session("/layouts?values=1500&width=3")).await;
    assert!(html.contains("refusal") && html.contains("width"), "a value wider than the width is refused: {html}");
}

#[tokio::test]
async fn the_audit_page_offers_its_sources_and_refuses_what_is_no_table_of_the_server() {
    let app = app();
    let (status, _, html) = send(&app, with_session("/audit")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Pick a source above") && html.contains("action=\"/audit/scan\""), "{html}");
    assert!(html.contains("<option>Runs</option>"), "the tables the server was started with: {html}");
    let (status, _, _) = send(&app, with_session("/audit?format=json")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no source, no report");
    // No table name at all is bad input; a table the server was not started with is forbidden.
    for (table, refused) in [("a%2F..%2Fb", StatusCode::BAD_REQUEST), ("Other", StatusCode::FORBIDDEN)] {
        let (status, _, body) = send(&app, with_session(&format!("/audit?source=scan&table={table}"))).await;
        assert_eq!(status, refused, "{table}: {body}");
        let post = get("/audit/scan")
            .method("POST")
            .header(header::COOKIE, "sortkey_session=s3ssion")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(format!("table={table}&rate=10")))
            .unwrap();
        let (status, _, body) = send(&app, post).await;
        assert_eq!(status, refused, "{table}: {body}");
    }
    // An export only when the server was started with one.
    let (_, _, html) = send(&app, with_session("/audit?source=export")).await;
    assert!(html.contains("Pick a source above"), "{html}");
}

#[tokio::test]
async fn the_migration_page_asks_which_migration_and_refuses_what_is_no_table_of_the_server() {
    let app = app();
    let (status, _, html) = send(&app, with_session("/migration")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("action=\"/migration\"") && html.contains("<option>RankKeyV1</option>"), "{html}");
    assert!(!html.contains("hx-trigger"), "nothing to refresh: {html}");
    let (status, _, _) = send(&app, with_session("/migration?format=json")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no migration named");
    let (status, _, body) = send(&app, with_session("/migration?table=Other&to=RankKey")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // A layout that is not the current one of its key: the command's refusal, before anything is read.
    let (status, _, body) = send(&app, with_session("/migration?table=Runs&to=RankKeyV1&format=json")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("is an older layout of `RankKey`"), "{body}");
}

/// The server's `--table` list holds on every page: the query page refuses another table as
/// browse does, and odd parameters get the page's own refusal, never the framework's text.
#[tokio::test]
async fn every_page_keeps_to_the_tables_of_the_server_and_refuses_odd_parameters() {
    let app = app();
    let paths = [
        "/query?layout=RankKey&table=Other&pk=P&v_score=1",
        "/query?layout=RankKey&table=Other&pk=P&v_score=1&format=json",
        "/browse?table=Other&pk=P",
        "/browse?table=Other&pk=P&format=json",
    ];
    for path in paths {
        let (status, _, body) = send(&app, with_session(path)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
        assert!(body.contains("not one of those the server was started with"), "{path}: {body}");
    }
    let odd = [
        ("/browse?table=Runs&pk=P&limit=-1", "limit"),
        ("/browse?table=Runs&pk=P&limit=0", "limit of 1 to 1000"),
        ("/browse?table=Runs&pk=P&limit=99999999999999999999999", "limit"),
        ("/browse?table=Runs&table=Other&pk=P", "table"),
        ("/browse?table=Runs&pk=P&colour=red", "colour"),
        ("/query?layout=RankKey&pk=P&op_score=zz&v_score=1", "expected a comparison"),
        ("/query?layout=RankKey&pk=P&v_score=1&limit=-1&table=Runs", "limit"),
        ("/query?layout=Nope&pk=P", "no layout"),
        ("/layouts?width=abc", "width"),
        ("/layouts?colour=red", "colour"),
        ("/audit?source=scan&table=Runs&colour=red", "colour"),
        ("/audit?source=everything", "source"),
        ("/?colour=red", "colour"),
        ("/migration?table=Runs&to=RankKey&colour=red", "colour"),
    ];
    for (path, says) in odd {
        let (status, _, body) = send(&app, with_session(path)).await;
        assert!(status.is_client_error(), "{path}: {status} {body}");
        assert!(body.contains(says), "{path}: {body}");
        assert!(!body.contains("Failed to deserialize"), "{path}: the framework's text: {body}");
        let (_, _, json) = send(&app, with_session(&format!("{path}&format=json"))).await;
        assert!(json.contains(says), "{path} as JSON: {json}");
    }
}

/// Text from a request or a lock reaches a page only through the one display function: a
/// bidirectional override, a zero-width space and a terminal escape show escaped, as in a
/// terminal, in an element and in an attribute alike; markup shows as text.
#[tokio::test]
async fn text_a_browser_would_act_on_shows_escaped_on_every_page() {
    let app = app();
    let hostile = "p_%E2%80%AEexe.live%E2%80%8B%1B%5B2J%3Cb%3E";
    let (_, _, html) = send(&app, with_session(&format!("/query?layout=RankKey&pk={hostile}&v_score=1"))).await;
    for raw in ['\u{202e}', '\u{200b}', '\u{1b}'] {
        assert!(!html.contains(raw), "{raw:?} reached the page raw: {html}");
    }
    assert!(html.contains(r"p_\u{202e}exe.live\u{200b}\u{1b}[2J&#60;b&#62;"), "{html}");
    let (_, _, html) = send(&app, with_session(&format!("/browse?table=Runs&pk={hostile}&limit=0"))).await;
    assert!(!html.contains('\u{202e}') && html.contains(r"\u{202e}"), "{html}");
}

/// A page that reads DynamoDB is loaded only by this server's pages or by its URL: another site's
/// `<img>` or link (another port of 127.0.0.1 is the same site, its cookie goes along) spends
/// nothing; the icon and the assets are free to load.
#[tokio::test]
async fn a_page_loaded_by_another_site_is_refused_before_it_reads() {
    let app = app();
    for site in ["cross-site", "same-site"] {
        let request = get("/browse?table=Runs&pk=P")
            .header(header::COOKIE, "sortkey_session=s3ssion")
            .header("sec-fetch-site", site)
            .body(Body::empty())
            .unwrap();
        let (status, _, body) = send(&app, request).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{site}: {body}");
    }
    for site in ["same-origin", "none"] {
        let request = get("/layouts").header(header::COOKIE, "sortkey_session=s3ssion").header("sec-fetch-site", site);
        let (status, _, _) = send(&app, request.body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{site}");
    }
    let request =
        get("/favicon.ico").header(header::COOKIE, "sortkey_session=s3ssion").header("sec-fetch-site", "cross-site");
    let (status, headers, body) = send(&app, request.body(Body::empty()).unwrap()).await;
    assert_eq!((status, headers[header::CONTENT_TYPE].to_str().unwrap()), (StatusCode::OK, "image/svg+xml"));
    assert!(body.starts_with("<svg"), "{body}");
}

/// Bound to every address, the server answers to any of its IP addresses and `localhost` on its
/// port, never to a name (what a DNS rebinding would send).
#[tokio::test]
async fn bound_to_every_address_the_server_answers_its_addresses_and_no_name() {
    let mut app = Arc::into_inner(app()).unwrap();
    app.every_address = true;
    app.hosts = vec!["0.0.0.0:7878".into()];
    for (host, answers) in [
        ("127.0.0.1:7878", true),
        ("192.168.1.20:7878", true),
        ("[::1]:7878", true),
        ("localhost:7878", true),
        ("evil.example:7878", false),
        ("127.0.0.1:7879", false),
    ] {
        assert_eq!(app.answers_to(host), answers, "{host}");
    }
}

/// The lab on a table starts from the picked field's own width and order: changing only the
/// width keeps `desc`.
#[tokio::test]
async fn the_table_lab_starts_from_the_field_s_own_width_and_order() {
    let app = app();
    let (_, _, html) = send(&app, with_session("/layouts?field=RankKey%3Ascore")).await;
    assert!(html.contains(r#"name="new_width" value="12""#), "{html}");
    let desc = html.split(r#"name="desc""#).nth(1).unwrap().split('>').next().unwrap();
    assert!(desc.contains("checked"), "{desc}");
}

/// DynamoDB not answering is 502 on every page that reads it (browse and query alike, before:
/// 502 and 400; the status is the failed request's kind), and a browse page's JSON link keeps
/// every parameter of the page (`after` too).
#[tokio::test]
async fn an_unreachable_table_is_502_everywhere_and_the_json_link_keeps_the_page() {
    let app = app();
    for path in [
        "/browse?table=Runs&pk=P&format=json",
        "/query?layout=RankKey&table=Runs&pk=P&v_score=1&format=json",
        "/browse?table=Runs&pk=P",
        "/query?layout=RankKey&table=Runs&pk=P&v_score=1",
    ] {
        let (status, _, body) = send(&app, with_session(path)).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{path}: {body}");
    }
    let (_, _, html) = send(&app, with_session("/browse?table=Runs&pk=P&limit=5&after=RUN%23x&reverse=true")).await;
    let link = html.split("href=\"").find(|h| h.contains("format=json")).unwrap().split('"').next().unwrap();
    for part in ["table=Runs", "pk=P", "limit=5", "after=RUN%23x", "reverse=true", "format=json"] {
        assert!(link.contains(part), "{part} in {link}");
    }
}

/// A browse page's link to another page is its ask, whole: every parameter the page was asked
/// with, a value holding `#`, `&`, `=` and spaces included, reads back as the same ask.
#[test]
fn a_browse_link_reads_back_as_the_ask_it_was_made_of() {
    use crate::ask::BrowseAsk;
    use crate::serve::pages::{browse_link, read_query};
    let whole = BrowseAsk {
        table: "Runs & more".into(),
        index: Some("ByPlayer".into()),
        pk: "SEASON#2026 = x".into(),
        layout: Some("RankKey".into()),
        limit: 7,
        reverse: true,
        after: Some("RUN#0000000001#p&1".into()),
        shard: Some(3),
        group: true,
        format: None,
    };
    let least = BrowseAsk { table: "T".into(), pk: "P".into(), limit: 10, ..BrowseAsk::default() };
    for ask in [whole, least] {
        let link = browse_link(&ask);
        let query = link.strip_prefix("/browse?").unwrap_or_else(|| panic!("{link}"));
        let read: BrowseAsk = read_query(Some(query)).unwrap_or_else(|e| panic!("{link}: {}", e.message));
        assert_eq!(read, ask, "{link}");
    }
}
