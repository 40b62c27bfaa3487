import { z } from "zod";
import { Email, Me, MemberRole } from "./auth.js";

// Member invitations (docs/members.md): what the members screen and the accept page share with
// the server.

/** How long an invitation link stays valid. */
export const INVITE_TTL_DAYS = 7;

/** The link's secret as the accept page sends it back (base62; never in a URL the server logs). */
export const InviteToken = z
  .string()
  .trim()
  .min(1, "is missing: open the link from the invitation again")
  .max(128, "is not an invitation token");

export const CreateInviteInput = z
  .object({ email: Email, role: MemberRole })
  .strict()
  .meta({ id: "CreateInviteInput", example: { email: "dana@example.com", role: "member" } });
export type CreateInviteInput = z.input<typeof CreateInviteInput>;

/** A pending invitation as owners and admins see it: never its token. */
export const InviteView = z
  .object({
    id: z.string(),
    orgId: z.string(),
    email: z.string(),
    role: MemberRole,
    invitedBy: z
      .object({ name: z.string(), email: z.string() })
      .nullable()
      .describe("Who sent it; null once their account is gone"),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: "Invite" });
export type InviteView = z.infer<typeof InviteView>;

/** An invitation just made: its view, its link this once, and whether it went out by email. */
export const CreatedInvite = InviteView.extend({
  link: z
    .string()
    .nullable()
    .describe(
      "The single-use invitation link (absolute), in this response only and only when it was not emailed: an emailed link reaches only the invitee, so nobody else can accept as them",
    ),
  emailed: z.boolean().describe("True when the server's SMTP server accepted the invitation email"),
  emailError: z
    .string()
    .nullable()
    .describe(
      "Why it was not emailed: SMTP is not configured, or the SMTP server refused it; share the link instead",
    ),
}).meta({ id: "CreatedInvite" });
export type CreatedInvite = z.infer<typeof CreatedInvite>;

export const InviteTokenInput = z
  .object({ token: InviteToken })
  .strict()
  .meta({ id: "InviteTokenInput", example: { token: "4Qb0…" } });
export type InviteTokenInput = z.input<typeof InviteTokenInput>;

/** What the accept page shows of an open invitation (to whoever holds its link). */
export const Invitation = z
  .object({
    orgName: z.string(),
    email: z.string(),
    role: MemberRole,
    invitedBy: z.string().nullable().describe("The inviter's name"),
    expiresAt: z.string(),
    hasAccount: z
      .boolean()
      .describe(
        "True when this email already has an account: accepting asks for its password instead of a new one",
      ),
  })
  .meta({ id: "Invitation" });
export type Invitation = z.infer<typeof Invitation>;

export const AcceptInviteInput = z
  .object({
    token: InviteToken,
    /** A new account's password (8–256 characters), or the existing account's. */
    password: z.string().min(1, "is required").max(256, "must be at most 256 characters"),
    /** A new account's name; the email's local part when omitted. */
    name: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .meta({
    id: "AcceptInviteInput",
    example: { token: "4Qb0…", password: "a long secret", name: "Dana" },
  });
export type AcceptInviteInput = z.input<typeof AcceptInviteInput>;

/** An accepted invitation: the organization joined and the signed-in user (the cookie is set). */
export const AcceptedInvite = z
  .object({ orgId: z.string(), me: Me })
  .meta({ id: "AcceptedInvite" });
export type AcceptedInvite = z.infer<typeof AcceptedInvite>;
