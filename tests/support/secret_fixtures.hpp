// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace starling::test {

/// A secret in the shape people paste it, the part that must never reach the disk, and a near miss:
/// text that resembles the format but is no secret, which redaction must leave exactly as it is.
struct SecretFixture {
    std::string format;
    std::string text;      ///< as it appears in a message
    std::string secret;    ///< the bytes that must not survive
    std::string near_miss; ///< must survive byte for byte
};

/// Fake credentials of every format Starling redacts (none of them is real; the random parts were
/// generated for these tests).
inline const std::vector<SecretFixture> &secret_fixtures() {
    static const std::vector<SecretFixture> fixtures{
        {"aws access key id", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE",
         "the AKIAIOSFODNN7 prefix and AKIAIOSFODNN7EXAMPLEKEY1 are too short or too long"},
        {"aws secret in assignment", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
         "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "rotate the aws_secret_access_key every 90 days"},
        {"github classic token", "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
         "tokens start with ghp_ or gho_ and the ghp_short one is invalid"},
        {"github fine-grained token",
         "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX",
         "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX",
         "create a github_pat_ token in the settings"},
        {"gitlab token", "glpat-x9Y8z7W6v5U4t3S2r1Q0", "glpat-x9Y8z7W6v5U4t3S2r1Q0",
         "GitLab personal tokens start with glpat-"},
        {"openai key", "sk-proj-Abc123Def456Ghi789Jkl012Mno345", "sk-proj-Abc123Def456Ghi789Jkl012Mno345",
         "use the sk-learn-based-classification-pipeline from sk-learn-2024-edition-notes"},
        {"anthropic key", "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2", "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2",
         "keys look like sk-ant-api03-... in the console"},
        {"slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
         "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "the xoxb- prefix marks bot tokens"},
        {"google api key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
         "Google keys begin with AIza and are restricted per referrer"},
        {"stripe secret key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
         "never commit sk_live_ keys; the sk_live_key_rotation_guide explains why"},
        {"npm token", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
         "run npm_config_registry=https://registry.npmjs.org npm install"},
        {"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
         "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
         "a JWT header always starts with eyJ, e.g. eyJhbGciOiJIUzI1NiJ9"},
        {"private key block",
         "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----",
         "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=",
         "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ=\n-----END CERTIFICATE-----"},
        {"password in url", "https://deploy:Tr0ub4dor&3@git.example.com/repo.git", "Tr0ub4dor&3",
         "clone https://git.example.com:8443/team/repo.git and mail ops@example.com"},
        {"password in url with a slash", "postgres://app:p4ss/w0rd+x@db.internal:5432/prod", "p4ss/w0rd+x",
         "see https://example.com:8080/users/@alice and http://host/a:b@c"},
        {"password assignment", "password: correct-horse-battery-staple", "correct-horse-battery-staple",
         "My password policy doc is at wiki/passwords and the tokenizer is in src/tokenizer.cpp"},
        {"api token env var", "export API_TOKEN=\"a8f5f167f44f4964e6c998dee827110c\"", "a8f5f167f44f4964e6c998dee827110c",
         "the commit a8f5f167f44f4964e6c998dee827110c0f1e2d3c fixed it"},
        {"bearer token", "Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015", "9f86d081884c7d659a2feaa0c55ad015",
         "send an Authorization: Bearer header; the bearer of bad news is short"},
        {"azure storage connection string",
         "DefaultEndpointsProtocol=https;AccountName=starlingdata;AccountKey=pTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa/"
         "2o76umfXfKm/r5kJP1VrT+1FJors/6ILi8IHn5kxsC7tVO==;EndpointSuffix=core.windows.net",
         "pTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa/2o76umfXfKm/r5kJP1VrT+1FJors/6ILi8IHn5kxsC7tVO==",
         "DefaultEndpointsProtocol=https;AccountName=starlingdata;EndpointSuffix=core.windows.net"},
        {"azure service bus connection string",
         "Endpoint=sb://starling.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
         "SharedAccessKey=/HbkQfyy/KV5zjR3j1twdTKWTddB+XhkAS1voQG6yyz=",
         "/HbkQfyy/KV5zjR3j1twdTKWTddB+XhkAS1voQG6yyz=",
         "Endpoint=sb://starling.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey"},
        {"pypi token",
         "pypi-AgEIcHlwaS5vcmcyN9zHYIa4UOrGNATMuDJawTgsu8PO-799nKSNrh9UCauSDmLhuVtcqcYezdZ_tDDj8hYs5suKcNd8Zra",
         "pypi-AgEIcHlwaS5vcmcyN9zHYIa4UOrGNATMuDJawTgsu8PO-799nKSNrh9UCauSDmLhuVtcqcYezdZ_tDDj8hYs5suKcNd8Zra",
         "pip install pypi-simple-index-2.1 from pypi-mirror-eu-west-1"},
        {"twilio api key", "SKf0fb23c6f5da2cec255404e4fb440034", "SKf0fb23c6f5da2cec255404e4fb440034",
         "SKU-2024-0001 and SKIP_TESTS=1 are not keys"},
        {"twilio auth token",
         "curl -X POST https://api.twilio.com -u ACd6608697a8d41bed440e50454f31af31:76813e02ea68ef786e4d3cea27d26934",
         "76813e02ea68ef786e4d3cea27d26934", "account ACd6608697a8d41bed440e50454f31af31 sends the SMS"},
        {"twilio auth token in json", R"({"accountSid": "ACd6608697a8d41bed440e50454f31af31", "authToken": "76813e02ea68ef786e4d3cea27d26934"})",
         "76813e02ea68ef786e4d3cea27d26934", R"({"authTokenTtl": 3600, "authMode": "sid"})"},
        {"sendgrid key", "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",
         "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",
         "SG.Mail.Send is the permission; see SG.docs.example.com"},
        {"heroku api key", "heroku api key: 84173581-5699-69e5-8b08-1006f7e3dfc9",
         "84173581-5699-69e5-8b08-1006f7e3dfc9", "request 84173581-5699-69e5-8b08-1006f7e3dfc9 failed on the worker"},
        {"heroku new-style api key", "HRKU-AAM1-5WdR16ePlljivghZ4fXfeTkYpIygfdM7ENA8d5vFldPGYYJvW5hANsb",
         "HRKU-AAM1-5WdR16ePlljivghZ4fXfeTkYpIygfdM7ENA8d5vFldPGYYJvW5hANsb", "Heroku keys now start with HRKU-"},
        {"digitalocean token", "dop_v1_67a64cb14028d512c9791e558e08baa7196b50ac2f86702824c1c099724caf49",
         "dop_v1_67a64cb14028d512c9791e558e08baa7196b50ac2f86702824c1c099724caf49",
         "DigitalOcean tokens start with dop_v1_ followed by 64 hex digits"},
        {"hugging face token", "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", "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",
         "call hf_hub_download or hf_hub_url_for_the_main_repository_files"},
        {"mailgun key", "key-3ce107f80e222f828767efc2f91624a8", "key-3ce107f80e222f828767efc2f91624a8",
         "a key-value-store-with-thirty-two-chars and key-2024 are fine"},
        {"pgpass line", "db.internal:5432:appdb:app:Zk3!pq9#Lw", "Zk3!pq9#Lw",
         "at 12:30:45 the ratio was 1:2:3 and fe80::1:2:3 answered"},
        {"slack webhook url", "https://hooks.slack.com/services/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",
         "TTIA4D5RG/BN5S7S333H9/MTF7eBSdE0g9cRYN687NElFJ", "post to https://hooks.slack.com/services/ via the bot"},
        {"authorization basic header", "Authorization: Basic ZGVwbG95OlN1cDNyUzNjcmV0UGFzc3cwcmQ=",
         "ZGVwbG95OlN1cDNyUzNjcmV0UGFzc3cwcmQ", "Basic authentication is disabled; Basic plan users pay less"},
        {"docker config auth", R"({"auths": {"registry.example.com": {"auth": "cm9ib3QkY2k6WnE4dk4ya0xtNFhw"}}})",
         "cm9ib3QkY2k6WnE4dk4ya0xtNFhw", "auth: use OAuth for the registry, see the auth docs"},
        {"telegram bot token", "902607174:AAhuQjOud-_yDUA_5zmS1swoPqApryPZBlg",
         "902607174:AAhuQjOud-_yDUA_5zmS1swoPqApryPZBlg", "the bot 902607174 replied at 10:45"},
        {"gcp service account key id", R"({"type": "service_account", "private_key_id": "b2cc2bd818319478da6bd0c621de49f145fda998"})",
         "b2cc2bd818319478da6bd0c621de49f145fda998", R"({"type": "service_account", "client_id": "1234567890"})"},
        {"shopify token", "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", "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",
         "Shopify admin tokens start with shpat_"},
        {"databricks token", "dapid6c8a1f8b46287cced9041dff02cee73", "dapid6c8a1f8b46287cced9041dff02cee73",
         "the dapi endpoint and dapiVersion2 flag"},
        {"grafana service account token", "glsa_OJJhrG80usp2w5dFjxCAyIOk6CptT9Io_8d33296c",
         "glsa_OJJhrG80usp2w5dFjxCAyIOk6CptT9Io_8d33296c", "glsa_ is the prefix of Grafana tokens"},
        {"linear api key", "lin_api_QOymAAiTdR9Up14PehPjPB9atpTDBMf4rpaFQOqb",
         "lin_api_QOymAAiTdR9Up14PehPjPB9atpTDBMf4rpaFQOqb", "the lin_api_ prefix"},
        {"age secret key", "AGE-SECRET-KEY-1XO5CV0XZMAS6EN5MTMO3OQSG5LO50DJZDNBJ0DDLZ2UHFKVML73CTYXV2K",
         "AGE-SECRET-KEY-1XO5CV0XZMAS6EN5MTMO3OQSG5LO50DJZDNBJ0DDLZ2UHFKVML73CTYXV2K",
         "age keys start with AGE-SECRET-KEY-1"},
        {"doppler token", "dp.pt.GAFRFWa94Hj9wNYWx0T0zbFDteMXi6cMUXv5eBoaPzo",
         "dp.pt.GAFRFWa94Hj9wNYWx0T0zbFDteMXi6cMUXv5eBoaPzo", "the dp.pt. prefix is for personal tokens"},
        {"postman api key", "PMAK-c1c1e21862ab8a18a8902073-fec8df4f50947aaeb26c57d21fa5d32826",
         "PMAK-c1c1e21862ab8a18a8902073-fec8df4f50947aaeb26c57d21fa5d32826", "PMAK- keys belong in the vault"},
        {"discord webhook url",
         "https://discord.com/api/webhooks/525092021755485820/rSFagEaBp0vXnJaE-9I0MyTLUyi0kn1Gnt11CuZyzaA3U2OLzu6UQBGSyLvVSskUVINx",
         "rSFagEaBp0vXnJaE-9I0MyTLUyi0kn1Gnt11CuZyzaA3U2OLzu6UQBGSyLvVSskUVINx",
         "read https://discord.com/developers/docs/resources/webhook"},
        {"stripe webhook secret", "whsec_fwzy9zMTI18C6eUDm7oYF5tns05Koy2O", "whsec_fwzy9zMTI18C6eUDm7oYF5tns05Koy2O",
         "the whsec_ prefix"},
        {"curl user password", "curl -u deploy:Hx7-qq2Lm https://ci.example.com/api", "Hx7-qq2Lm",
         "curl -u deploy https://ci.example.com/api prompts for it"},
        {"api key in camelCase json", R"({"apiKey": "Qm9vbGVhbkZsYWdzMTIz", "apiVersion": "2024-01-01"})",
         "Qm9vbGVhbkZsYWdzMTIz", R"({"apiVersion": "2024-01-01", "keyboardLayout": "us"})"},
        {"credential in prose", "the staging auth token is 9f2c6b1de4a87f03c5b2e91d7a604f8e",
         "9f2c6b1de4a87f03c5b2e91d7a604f8e", "the token is valid for an hour and the password is in the vault"},
    };
    return fixtures;
}

} // namespace starling::test
