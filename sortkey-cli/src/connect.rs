//! The DynamoDB client, and the S3 client an export is read through, with the AWS CLI's
//! conventions: `--endpoint-url`, `--region`, `--profile`, and aws-config's default chain for
//! the rest (credentials, `AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB` or `AWS_ENDPOINT_URL_S3`, a
//! profile's `endpoint_url`). TLS for an `https` endpoint (and AWS itself), plain HTTP for an
//! `http` one such as a local server.

use aws_config::{BehaviorVersion, Region};
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::Credentials;
use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};

use crate::cli::Args;

/// The DynamoDB client the options ask for.
pub(crate) async fn client(args: &Args) -> Client {
    Client::new(&config(args, "AWS_ENDPOINT_URL_DYNAMODB").await)
}

#[cfg(feature = "s3")]
/// The S3 client the options ask for; against an endpoint (a local server), buckets are in the
/// path rather than the host name.
pub(crate) async fn s3_client(args: &Args) -> aws_sdk_s3::Client {
    let config = config(args, "AWS_ENDPOINT_URL_S3").await;
    let local = config.endpoint_url().is_some();
    aws_sdk_s3::Client::from_conf(aws_sdk_s3::config::Builder::from(&config).force_path_style(local).build())
}

/// The shared configuration, its endpoint `--endpoint-url` or the service's variable `variable`.
async fn config(args: &Args, variable: &str) -> aws_config::SdkConfig {
    let endpoint = args.endpoint_url.clone().or_else(|| std::env::var(variable).ok());
    let plain = endpoint.as_deref().is_some_and(|url| url.starts_with("http://"));
    let http = if plain {
        aws_smithy_http_client::Builder::new().build_http()
    } else {
        aws_smithy_http_client::Builder::new().tls_provider(tls::Provider::Rustls(CryptoMode::Ring)).build_https()
    };
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).http_client(http);
    if let Some(profile) = &args.profile {
        loader = loader.profile_name(profile);
    }
    if let Some(region) = &args.region {
        loader = loader.region(Region::new(region.clone()));
    }
    if let Some(url) = &endpoint {
        loader = loader.endpoint_url(url);
    }
    // A local server takes any credentials: when none are configured, it gets placeholders
    // instead of a failure to find them.
    if plain && std::env::var_os("AWS_ACCESS_KEY_ID").is_none() && args.profile.is_none() {
        loader = loader.credentials_provider(Credentials::new("local", "local", None, None, "sortkey"));
    }
    let mut config = loader.load().await;
    if config.region().is_none() {
        config = config.into_builder().region(Region::new("us-east-1")).build();
    }
    config
}
