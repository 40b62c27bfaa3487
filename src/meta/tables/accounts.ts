// The metadata tables of organizations, their members and projects, API keys and sign-in sessions (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface ProjectsTable {
  id: string;
  org_id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  role: string;
  /** JSON array of permission names. */
  permissions: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}
