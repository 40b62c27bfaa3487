import type { Kysely } from "kysely";
import { sql } from "kysely";
import { ConflictError } from "../lib/domain-errors.js";
import { type MetaDatabase, migrateMetaDatabase } from "./database.js";
import { createKeyLock, type KeyLock } from "./key-lock.js";
import { createAlertEventRepository } from "./repositories/alert-events.js";
import { createAlertRuleRepository } from "./repositories/alert-rules.js";
import { createAlertSeriesRepository } from "./repositories/alert-series.js";
import { createApiKeyRepository } from "./repositories/api-keys.js";
import { createDashboardRepository } from "./repositories/dashboards.js";
import { createEscalationPolicyRepository } from "./repositories/escalation-policies.js";
import { createHeartbeatRepository } from "./repositories/heartbeats.js";
import { createIncidentAckLinkRepository } from "./repositories/incident-ack-links.js";
import { createIncidentEscalationRepository } from "./repositories/incident-escalations.js";
import { createIncidentRepository } from "./repositories/incidents.js";
import { createInviteRepository } from "./repositories/invites.js";
import { createMonitorResultRepository } from "./repositories/monitor-results.js";
import { createMonitorRepository } from "./repositories/monitors.js";
import { createNotificationChannelRepository } from "./repositories/notification-channels.js";
import { createNotificationDeliveryRepository } from "./repositories/notification-deliveries.js";
import { createOrganizationRepository } from "./repositories/organizations.js";
import { createProjectRepository } from "./repositories/projects.js";
import { createSavedQueryRepository } from "./repositories/saved-queries.js";
import { createSavedViewRepository } from "./repositories/saved-views.js";
import { createSignInSessionRepository } from "./repositories/sign-in-sessions.js";
import { createStatusPageDayRepository } from "./repositories/status-page-days.js";
import { createStatusPageIncidentLinkRepository } from "./repositories/status-page-incident-links.js";
import { createStatusPageMaintenanceRepository } from "./repositories/status-page-maintenances.js";
import { createStatusPageNotificationRepository } from "./repositories/status-page-notifications.js";
import { createStatusPageStateRepository } from "./repositories/status-page-state.js";
import { createStatusPageSubscriberRepository } from "./repositories/status-page-subscribers.js";
import { createStatusPageRepository } from "./repositories/status-pages.js";
import { createUserRepository } from "./repositories/users.js";
import { createWebhookDeliveryRepository } from "./repositories/webhook-deliveries.js";
import { createWebhookEndpointRepository } from "./repositories/webhook-endpoints.js";
import { createWorkLeaseRepository } from "./repositories/work-leases.js";
import type { MetaSchema } from "./schema.js";
import { sqliteDirectOf, sqliteTransaction } from "./sqlite-direct.js";

type RepositoryFactory = (db: Kysely<MetaSchema>, engine: MetaDatabase["engine"]) => unknown;

const REPOSITORIES = {
  organizations: createOrganizationRepository,
  users: createUserRepository,
  projects: createProjectRepository,
  apiKeys: createApiKeyRepository,
  signInSessions: createSignInSessionRepository,
  invites: createInviteRepository,
  monitors: createMonitorRepository,
  monitorResults: createMonitorResultRepository,
  heartbeats: createHeartbeatRepository,
  notificationChannels: createNotificationChannelRepository,
  notificationDeliveries: createNotificationDeliveryRepository,
  webhookEndpoints: createWebhookEndpointRepository,
  webhookDeliveries: createWebhookDeliveryRepository,
  incidents: createIncidentRepository,
  incidentAckLinks: createIncidentAckLinkRepository,
  incidentEscalations: createIncidentEscalationRepository,
  escalationPolicies: createEscalationPolicyRepository,
  alertRules: createAlertRuleRepository,
  alertSeries: createAlertSeriesRepository,
  alertEvents: createAlertEventRepository,
  statusPages: createStatusPageRepository,
  statusPageMaintenances: createStatusPageMaintenanceRepository,
  statusPageState: createStatusPageStateRepository,
  statusPageDays: createStatusPageDayRepository,
  statusPageIncidentLinks: createStatusPageIncidentLinkRepository,
  statusPageSubscribers: createStatusPageSubscriberRepository,
  statusPageNotifications: createStatusPageNotificationRepository,
  savedQueries: createSavedQueryRepository,
  savedViews: createSavedViewRepository,
  dashboards: createDashboardRepository,
  workLeases: createWorkLeaseRepository,
} satisfies Record<string, RepositoryFactory>;

/** Every repository, bound to the database or to one transaction. */
export type Repositories = {
  readonly [K in keyof typeof REPOSITORIES]: ReturnType<(typeof REPOSITORIES)[K]>;
};

const NAMES = Object.keys(REPOSITORIES);
const isName = (name: string | symbol): name is keyof typeof REPOSITORIES =>
  typeof name === "string" && Object.hasOwn(REPOSITORIES, name);

/**
 * The repositories bound to `db`, each built the first time it is used: a transaction uses a few
 * of the 31, and building all of them for each one cost a monitor check ~100 µs of CPU (a
 * Proxy: 31 lazy getters defined per transaction cost more than building them all).
 */
function createRepositories(db: Kysely<MetaSchema>, engine: MetaDatabase["engine"]): Repositories {
  const built = new Map<string, unknown>();
  const repo = (name: keyof typeof REPOSITORIES) => {
    let made = built.get(name);
    if (made === undefined) {
      made = REPOSITORIES[name](db, engine);
      built.set(name, made);
    }
    return made;
  };
  return new Proxy(
    {},
    {
      get: (_, name) => (isName(name) ? repo(name) : undefined),
      has: (_, name) => isName(name),
      ownKeys: () => [...NAMES],
      getOwnPropertyDescriptor: (_, name) =>
        isName(name) ? { value: repo(name), enumerable: true, configurable: true } : undefined,
    },
  ) as Repositories;
}

/**
 * What domain verbs use of the metadata store. Inside a transaction it is bound to that
 * transaction, so verbs compose: one that opens a transaction joins the caller's.
 */
export interface MetaAccess {
  readonly repos: Repositories;
  /** Runs fn atomically; a unique-constraint violation inside becomes a ConflictError. */
  transaction<T>(fn: (meta: MetaAccess) => Promise<T>): Promise<T>;
  /** Runs fn on these repositories, translating unique violations the same way. */
  run<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
}

/** The metadata store port: data access plus lifecycle, on SQLite or PostgreSQL. */
export interface MetaStore extends MetaAccess {
  readonly engine: MetaDatabase["engine"];
  /** Per-key mutual exclusion across every process on this store. */
  readonly keyLock: KeyLock;
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createMetaStore(database: MetaDatabase): MetaStore {
  const { db } = database;
  const translate = (error: unknown): never => {
    if (database.isUniqueViolation(error)) {
      throw new ConflictError("A record with the same unique value already exists");
    }
    throw error;
  };
  const inTransaction = (trx: Kysely<MetaSchema>): MetaAccess => {
    const access: MetaAccess = {
      repos: createRepositories(trx, database.engine),
      transaction: (fn) => fn(access),
      run: (fn) => fn(access.repos),
    };
    return access;
  };
  const repos = createRepositories(db, database.engine);
  // SQLite: transactions whose SQL text goes straight to the connection (sqlite-direct.ts).
  // They begin immediate, which a SQLite row lock (row-lock.ts) relies on: Kysely's own
  // transactions begin deferred, so a SQLite store never runs them.
  const direct = sqliteDirectOf(db);
  if (database.engine === "sqlite" && !direct)
    throw new Error(
      "a SQLite metadata store needs its direct path (openMetaDatabase registers it)",
    );
  return {
    engine: database.engine,
    keyLock: createKeyLock(database),
    repos,
    transaction: (fn) =>
      (direct
        ? sqliteTransaction(db, direct, (trx) => fn(inTransaction(trx)))
        : db.transaction().execute((trx) => fn(inTransaction(trx)))
      ).catch(translate),
    run: (fn) => fn(repos).catch(translate),
    migrate: () => migrateMetaDatabase(db),
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
