-- 001: identity and OAuth state of one embedded site.
-- Ids are TEXT with a type prefix (usr_, sch_, ...) so other migrations (002-content) can reference
-- users(id) and schools(id). Times are integer milliseconds since the epoch (server Clock).
-- Every token, code, secret and session id is stored as a SHA-256 hex digest, never in clear.

CREATE TABLE schools (
  id          TEXT PRIMARY KEY,            -- sch_...
  name        TEXT NOT NULL,
  subdomain   TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL
);

CREATE TABLE users (
  id             TEXT PRIMARY KEY,         -- usr_...
  email          TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name           TEXT NOT NULL,
  picture        TEXT,                     -- absolute URL or NULL (then /avatars/<id>.svg is served)
  password_hash  TEXT NOT NULL,            -- scrypt$N$r$p$salt$hash (see store/passwords.ts)
  created_at     INTEGER NOT NULL
);

-- A member may hold several roles at one school; UserInfo lists them highest first.
CREATE TABLE memberships (
  school_id   TEXT NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('owner','manager','admin','teacher','teaching_assistant','student')),
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (school_id, user_id, role)
);
CREATE INDEX memberships_user ON memberships(user_id);

-- OAuth clients. Member-audience clients belong to one school (created in its admin area);
-- operator-audience clients (vendor platforms, loopback registrations) have school_id NULL.
-- Client ID Metadata Document clients are not rows here: see client_metadata_cache.
CREATE TABLE oauth_clients (
  client_id         TEXT PRIMARY KEY,
  school_id         TEXT REFERENCES schools(id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  audience          TEXT NOT NULL CHECK (audience IN ('member','operator')),
  origin            TEXT NOT NULL CHECK (origin IN ('admin','vendor','loopback-registration')),
  confidential      INTEGER NOT NULL CHECK (confidential IN (0,1)),
  secret_hash       TEXT,                  -- SHA-256 hex of client_secret; NULL for public clients
  redirect_uris     TEXT NOT NULL,         -- JSON array of strings
  application_type  TEXT NOT NULL DEFAULT 'native',
  created_at        INTEGER NOT NULL,
  CHECK ((confidential = 1) = (secret_hash IS NOT NULL))
);

-- Pre-registered vendor platforms: the registration endpoint's allowlist (matched on client_name).
CREATE TABLE vendor_platforms (
  id           TEXT PRIMARY KEY,           -- vnd_...
  client_name  TEXT NOT NULL UNIQUE,
  client_id    TEXT NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  allowlisted  INTEGER NOT NULL DEFAULT 1 CHECK (allowlisted IN (0,1)),
  created_at   INTEGER NOT NULL
);

-- Fetched Client ID Metadata Documents (client_id is the document URL).
CREATE TABLE client_metadata_cache (
  client_id   TEXT PRIMARY KEY,
  document    TEXT NOT NULL,               -- validated JSON
  fetched_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);

CREATE TABLE authorization_codes (
  id                     TEXT PRIMARY KEY,          -- grant id; token pairs issued from it carry it
  code_hash              TEXT NOT NULL UNIQUE,
  client_id              TEXT NOT NULL,             -- not a FK: metadata-document clients have no row
  user_id                TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  school_id              TEXT NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
  redirect_uri           TEXT NOT NULL,
  scope                  TEXT NOT NULL,
  resource               TEXT,
  code_challenge         TEXT NOT NULL,
  nonce                  TEXT,
  audience               TEXT NOT NULL CHECK (audience IN ('member','operator')),
  auth_time              INTEGER NOT NULL,
  created_at             INTEGER NOT NULL,
  expires_at             INTEGER NOT NULL,
  used_at                INTEGER
);

-- One record per access+refresh pair, with ONE revocation stamp for both (spec: Token pair lifecycle).
CREATE TABLE token_pairs (
  id                   TEXT PRIMARY KEY,            -- tok_...
  grant_id             TEXT NOT NULL,               -- authorization_codes.id the chain started from
  parent_id            TEXT REFERENCES token_pairs(id) ON DELETE SET NULL, -- pair this one was refreshed from
  access_hash          TEXT NOT NULL UNIQUE,
  refresh_hash         TEXT NOT NULL UNIQUE,
  client_id            TEXT NOT NULL,
  user_id              TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  school_id            TEXT REFERENCES schools(id) ON DELETE CASCADE, -- NULL is refused by the bearer check
  scope                TEXT NOT NULL,
  resource             TEXT,
  audience             TEXT NOT NULL CHECK (audience IN ('member','operator')),
  created_at           INTEGER NOT NULL,
  access_expires_at    INTEGER NOT NULL,
  refresh_expires_at   INTEGER NOT NULL,
  first_presented_at   INTEGER,                     -- first use of the access token at a protected resource
  revoked_at           INTEGER,
  revoked_reason       TEXT
);
CREATE INDEX token_pairs_grant ON token_pairs(grant_id);
CREATE INDEX token_pairs_parent ON token_pairs(parent_id);
CREATE INDEX token_pairs_client ON token_pairs(client_id);

-- ES256 id_token signing keys. kid is the RFC 7638 thumbprint. A retired key stays published in the
-- JWKS until published_until so id_tokens signed just before a rotation still verify.
CREATE TABLE signing_keys (
  kid              TEXT PRIMARY KEY,
  alg              TEXT NOT NULL,
  private_jwk      TEXT NOT NULL,
  public_jwk       TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  retired_at       INTEGER,
  published_until  INTEGER
);

-- Browser sessions (sign-in and admin pages). The cookie value is the secret; only its hash is stored.
CREATE TABLE browser_sessions (
  id_hash     TEXT PRIMARY KEY,
  user_id     TEXT REFERENCES users(id) ON DELETE CASCADE,   -- NULL until signed in
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);

-- An authorization request waiting for sign-in and consent, bound to the browser session that saw it.
CREATE TABLE pending_authorizations (
  id            TEXT PRIMARY KEY,
  session_hash  TEXT NOT NULL REFERENCES browser_sessions(id_hash) ON DELETE CASCADE,
  params        TEXT NOT NULL,              -- validated request as JSON
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL
);

-- Admin beta features per school (e.g. 'mcp_connections' opens Developers > OAuth applications).
CREATE TABLE school_features (
  school_id   TEXT NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
  feature     TEXT NOT NULL,
  enabled_by  TEXT REFERENCES users(id) ON DELETE SET NULL,
  enabled_at  INTEGER NOT NULL,
  PRIMARY KEY (school_id, feature)
);
