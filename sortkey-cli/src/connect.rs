//! The DynamoDB client, and the S3 client an export is read through, with the AWS CLI's
//! conventions: `--endpoint-url`, `--region`, `--profile`, and aws-config's default chain for
//! the rest (credentials, `AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB` or `AWS_ENDPOINT_URL_S3`, a
//! profile's `endpoint_url`). TLS for an `https` endpoint (and AWS itself), plain HTTP for an
//! `http` one such as a local server.

use aws_config::{BehaviorVersion, Region};
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::Credentials;
use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};

use crate::ask::Connection;
use crate::outcome::{AskError, AskErrorKind};

/// The DynamoDB client the options ask for.
pub(crate) async fn client(connection: &Connection) -> Client {
    Client::new(&config(connection, "AWS_ENDPOINT_URL_DYNAMODB").await)
}

#[cfg(feature = "s3")]
/// The S3 client the options ask for; against an endpoint (a local server), buckets are in the
/// path rather than the host name.
pub(crate) async fn s3_client(connection: &Connection) -> aws_sdk_s3::Client {
    let config = config(connection, "AWS_ENDPOINT_URL_S3").await;
    let local = config.endpoint_url().is_some();
    aws_sdk_s3::Client::from_conf(aws_sdk_s3::config::Builder::from(&config).force_path_style(local).build())
}

/// What a failure to reach DynamoDB adds when the command talked to AWS itself (no
/// `--endpoint-url`, no `AWS_ENDPOINT_URL*`) and found no credentials or no answer: that it was
/// AWS it tried, and how to point it at a local server. Empty otherwise.
pub(crate) fn aws_hint(connection: &Connection, error: &AskError) -> &'static str {
    let endpoint = connection.endpoint.is_some()
        || ["AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB"].iter().any(|v| std::env::var_os(v).is_some());
    match !endpoint && error.kind == AskErrorKind::Unreachable {
        true => {
            " (this talked to AWS, as no --endpoint-url was given: for a local server such as DynamoDB Local or \
             moto, give --endpoint-url http://localhost:8000; for AWS, credentials and a region: AWS_PROFILE, \
             AWS_REGION, `aws configure` or `aws sso login`)"
        }
        false => "",
    }
}

/// The shared configuration, its endpoint `--endpoint-url` or the service's variable `variable`.
async fn config(connection: &Connection, variable: &str) -> aws_config::SdkConfig {
    let endpoint = connection.endpoint.clone().or_else(|| std::env::var(variable).ok());
    let plain = endpoint.as_deref().is_some_and(|url| url.starts_with("http://"));
    let http = if plain {
        aws_smithy_http_client::Builder::new().build_http()
    } else {
        aws_smithy_http_client::Builder::new().tls_provider(tls::Provider::Rustls(CryptoMode::Ring)).build_https()
    };
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).http_client(http);
    if let Some(profile) = &connection.profile {
        loader = loader.profile_name(profile);
    }
    if let Some(region) = &connection.region {
        loader = loader.region(Region::new(region.clone()));
    }
    if let Some(url) = &endpoint {
        loader = loader.endpoint_url(url);
    }
    // A local server takes any credentials: when none are configured, it gets placeholders
    // instead of a failure to find them.
    if plain && std::env::var_os("AWS_ACCESS_KEY_ID").is_none() && connection.profile.is_none() {
        loader = loader.credentials_provider(Credentials::new("local", "local", None, None, "sortkey"));
    }
    let mut config = loader.load().await;
    if config.region().is_none() {
        config = config.into_builder().region(Region::new("us-east-1")).build();
    }
    config
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::error::SdkError;
    use aws_sdk_dynamodb::operation::list_tables::ListTablesError;

    use crate::ask::Connection;
    use crate::outcome::AskError;

    /// A failure to reach AWS says that it was AWS, and how to name a local server; with an
    /// endpoint, or for another failure, nothing is added.
    #[test]
    fn a_failure_to_reach_aws_says_it_was_aws() {
        let aws = Connection::default();
        let local = Connection { endpoint: Some("http://localhost:8000".to_owned()), ..Connection::default() };
        let failed: SdkError<ListTablesError, ()> =
            SdkError::construction_failure("no providers in chain provided credentials");
        let credentials = &AskError::request("cannot list the tables", &failed);
        if std::env::var_os("AWS_ENDPOINT_URL").is_none() && std::env::var_os("AWS_ENDPOINT_URL_DYNAMODB").is_none() {
            assert!(super::aws_hint(&aws, credentials).contains("--endpoint-url http://localhost:8000"));
        }
        assert_eq!(super::aws_hint(&local, credentials), "");
        assert_eq!(super::aws_hint(&aws, &AskError::not_found("table Runs has no sort key")), "");
    }
}
