#ifndef REEL_CLIBCRYPTO_SHIM_H
#define REEL_CLIBCRYPTO_SHIM_H
// AES-256-GCM through OpenSSL's libcrypto (Debian: libssl-dev for the headers, libssl3 at run
// time), with the key schedule kept in an EVP_CIPHER_CTX between messages. swift-crypto's AES.GCM
// sets the key up again for every call and copies through Data, which costs ten times the cipher
// itself for a 200-byte payload.
//
// libcrypto is loaded with dlopen on first use, not linked: linking it adds about 2 ms to the start
// of every process, and loading its default provider about 1.5 ms more, which small commands (one
// event sealed) would pay for nothing. When it cannot be loaded, Reel seals with swift-crypto.
#include <dlfcn.h>
#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>

/// The libcrypto functions Reel uses, resolved by reel_libcrypto_load.
typedef struct {
    EVP_CIPHER_CTX *(*ctx_new)(void);
    void (*ctx_free)(EVP_CIPHER_CTX *);
    const EVP_CIPHER *(*aes_256_gcm)(void);
    int (*cipher_init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *, const unsigned char *, int);
    int (*cipher_update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*cipher_final)(EVP_CIPHER_CTX *, unsigned char *, int *);
    int (*ctx_ctrl)(EVP_CIPHER_CTX *, int, int, void *);
} reel_libcrypto;

/// Loads libcrypto 3 and fills `lib`; returns 1, or 0 when it is not there.
static inline int reel_libcrypto_load(reel_libcrypto *lib) {
    void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return 0;
    lib->ctx_new = (EVP_CIPHER_CTX * (*)(void)) dlsym(handle, "EVP_CIPHER_CTX_new");
    lib->ctx_free = (void (*)(EVP_CIPHER_CTX *))dlsym(handle, "EVP_CIPHER_CTX_free");
    lib->aes_256_gcm = (const EVP_CIPHER *(*)(void))dlsym(handle, "EVP_aes_256_gcm");
    lib->cipher_init = (int (*)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *, const unsigned char *, int))dlsym(handle, "EVP_CipherInit_ex");
    lib->cipher_update = (int (*)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int))dlsym(handle, "EVP_CipherUpdate");
    lib->cipher_final = (int (*)(EVP_CIPHER_CTX *, unsigned char *, int *))dlsym(handle, "EVP_CipherFinal_ex");
    lib->ctx_ctrl = (int (*)(EVP_CIPHER_CTX *, int, int, void *))dlsym(handle, "EVP_CIPHER_CTX_ctrl");
    if (!lib->ctx_new || !lib->ctx_free || !lib->aes_256_gcm || !lib->cipher_init || !lib->cipher_update
        || !lib->cipher_final || !lib->ctx_ctrl) {
        dlclose(handle);
        return 0;
    }
    return 1;  // kept loaded for the life of the process
}

/// A context holding the schedule of a 32-byte key, or NULL. Free with reel_gcm_free.
static inline EVP_CIPHER_CTX *reel_gcm_new(const reel_libcrypto *lib, const uint8_t *key) {
    EVP_CIPHER_CTX *ctx = lib->ctx_new();
    if (ctx == NULL) return NULL;
    if (lib->cipher_init(ctx, lib->aes_256_gcm(), NULL, key, NULL, 0) != 1) {
        lib->ctx_free(ctx);
        return NULL;
    }
    return ctx;
}

/// Frees a context and wipes its key schedule.
static inline void reel_gcm_free(const reel_libcrypto *lib, EVP_CIPHER_CTX *ctx) { lib->ctx_free(ctx); }

/// Encrypts `length` bytes into `out` and writes the 16-byte tag; the associated data is
/// `aad1 ‖ aad2`. Returns 1, or 0 on failure.
static inline int reel_gcm_seal(const reel_libcrypto *lib, EVP_CIPHER_CTX *ctx, const uint8_t *nonce,
                                const uint8_t *aad1, size_t aad1Length, const uint8_t *aad2, size_t aad2Length,
                                const uint8_t *plaintext, size_t length, uint8_t *out, uint8_t *tag) {
    int n = 0;
    if (length > INT32_MAX || aad1Length > INT32_MAX || aad2Length > INT32_MAX) return 0;
    if (lib->cipher_init(ctx, NULL, NULL, NULL, nonce, 1) != 1) return 0;
    if (aad1Length > 0 && lib->cipher_update(ctx, NULL, &n, aad1, (int)aad1Length) != 1) return 0;
    if (aad2Length > 0 && lib->cipher_update(ctx, NULL, &n, aad2, (int)aad2Length) != 1) return 0;
    if (length > 0 && lib->cipher_update(ctx, out, &n, plaintext, (int)length) != 1) return 0;
    if (lib->cipher_final(ctx, out + n, &n) != 1) return 0;
    return lib->ctx_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
}

/// Decrypts `length` bytes into `out` when the tag authenticates them and `aad1 ‖ aad2`.
/// Returns 1 when authentic; 0 otherwise (then `out` must be discarded).
static inline int reel_gcm_open(const reel_libcrypto *lib, EVP_CIPHER_CTX *ctx, const uint8_t *nonce,
                                const uint8_t *aad1, size_t aad1Length, const uint8_t *aad2, size_t aad2Length,
                                const uint8_t *ciphertext, size_t length, const uint8_t *tag, uint8_t *out) {
    int n = 0;
    if (length > INT32_MAX || aad1Length > INT32_MAX || aad2Length > INT32_MAX) return 0;
    if (lib->cipher_init(ctx, NULL, NULL, NULL, nonce, 0) != 1) return 0;
    if (aad1Length > 0 && lib->cipher_update(ctx, NULL, &n, aad1, (int)aad1Length) != 1) return 0;
    if (aad2Length > 0 && lib->cipher_update(ctx, NULL, &n, aad2, (int)aad2Length) != 1) return 0;
    if (length > 0 && lib->cipher_update(ctx, out, &n, ciphertext, (int)length) != 1) return 0;
    if (lib->ctx_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) return 0;
    return lib->cipher_final(ctx, out + n, &n) == 1;
}

#endif
