// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace starling::test {

/// A secret in the shape people paste it, and the part that must never reach the disk.
struct SecretFixture {
    std::string format;
    std::string text;   ///< as it appears in a message
    std::string secret; ///< the bytes that must not survive
};

/// Fake credentials of every format Starling redacts (none of them is real).
inline const std::vector<SecretFixture> &secret_fixtures() {
    static const std::vector<SecretFixture> fixtures{
        {"aws access key id", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
        {"aws secret in assignment", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
         "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
        {"github classic token", "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"},
        {"github fine-grained token",
         "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX",
         "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"},
        {"gitlab token", "glpat-x9Y8z7W6v5U4t3S2r1Q0", "glpat-x9Y8z7W6v5U4t3S2r1Q0"},
        {"openai key", "sk-proj-Abc123Def456Ghi789Jkl012Mno345", "sk-proj-Abc123Def456Ghi789Jkl012Mno345"},
        {"anthropic key", "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2", "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2"},
        {"slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
         "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"},
        {"google api key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"},
        {"stripe secret key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
        {"npm token", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"},
        {"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
         "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
        {"private key block",
         "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----",
         "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU="},
        {"password in url", "https://deploy:Tr0ub4dor&3@git.example.com/repo.git", "Tr0ub4dor&3"},
        {"password assignment", "password: correct-horse-battery-staple", "correct-horse-battery-staple"},
        {"api token env var", "export API_TOKEN=\"a8f5f167f44f4964e6c998dee827110c\"", "a8f5f167f44f4964e6c998dee827110c"},
        {"bearer token", "Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015", "9f86d081884c7d659a2feaa0c55ad015"},
    };
    return fixtures;
}

} // namespace starling::test
