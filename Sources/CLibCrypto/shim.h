#ifndef REEL_CLIBCRYPTO_SHIM_H
#define REEL_CLIBCRYPTO_SHIM_H
// AES-256-GCM through OpenSSL's libcrypto (Debian: libssl-dev), with the key schedule kept in an
// EVP_CIPHER_CTX between messages. swift-crypto's AES.GCM sets the key up again for every call and
// copies through Data, which costs ten times the cipher itself for a 200-byte payload.
#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>

/// A context holding the schedule of a 32-byte key, or NULL. Free with reel_gcm_free.
static inline EVP_CIPHER_CTX *reel_gcm_new(const uint8_t *key) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, NULL, 0) != 1) {
        EVP_CIPHER_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/// Frees a context and wipes its key schedule.
static inline void reel_gcm_free(EVP_CIPHER_CTX *ctx) { EVP_CIPHER_CTX_free(ctx); }

/// Encrypts `length` bytes into `out` and writes the 16-byte tag; the associated data is
/// `aad1 ‖ aad2`. Returns 1, or 0 on failure.
static inline int reel_gcm_seal(EVP_CIPHER_CTX *ctx, const uint8_t *nonce,
                                const uint8_t *aad1, size_t aad1Length, const uint8_t *aad2, size_t aad2Length,
                                const uint8_t *plaintext, size_t length, uint8_t *out, uint8_t *tag) {
    int n = 0;
    if (length > INT32_MAX || aad1Length > INT32_MAX || aad2Length > INT32_MAX) return 0;
    if (EVP_CipherInit_ex(ctx, NULL, NULL, NULL, nonce, 1) != 1) return 0;
    if (aad1Length > 0 && EVP_CipherUpdate(ctx, NULL, &n, aad1, (int)aad1Length) != 1) return 0;
    if (aad2Length > 0 && EVP_CipherUpdate(ctx, NULL, &n, aad2, (int)aad2Length) != 1) return 0;
    if (length > 0 && EVP_CipherUpdate(ctx, out, &n, plaintext, (int)length) != 1) return 0;
    if (EVP_CipherFinal_ex(ctx, out + n, &n) != 1) return 0;
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
}

/// Decrypts `length` bytes into `out` when the tag authenticates them and `aad1 ‖ aad2`.
/// Returns 1 when authentic; 0 otherwise (then `out` must be discarded).
static inline int reel_gcm_open(EVP_CIPHER_CTX *ctx, const uint8_t *nonce,
                                const uint8_t *aad1, size_t aad1Length, const uint8_t *aad2, size_t aad2Length,
                                const uint8_t *ciphertext, size_t length, const uint8_t *tag, uint8_t *out) {
    int n = 0;
    if (length > INT32_MAX || aad1Length > INT32_MAX || aad2Length > INT32_MAX) return 0;
    if (EVP_CipherInit_ex(ctx, NULL, NULL, NULL, nonce, 0) != 1) return 0;
    if (aad1Length > 0 && EVP_CipherUpdate(ctx, NULL, &n, aad1, (int)aad1Length) != 1) return 0;
    if (aad2Length > 0 && EVP_CipherUpdate(ctx, NULL, &n, aad2, (int)aad2Length) != 1) return 0;
    if (length > 0 && EVP_CipherUpdate(ctx, out, &n, ciphertext, (int)length) != 1) return 0;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) return 0;
    return EVP_CipherFinal_ex(ctx, out + n, &n) == 1;
}

#endif
