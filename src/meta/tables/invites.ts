// The invitations table (src/meta/schema.ts maps it); timestamps are ISO 8601 UTC text.

export interface InvitesTable {
  id: string;
  org_id: string;
  /** Lower-cased, as the contract's Email reads it. */
  email: string;
  role: string;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}
