import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LoginInput, Me, SessionState } from "../../../src/contracts/auth";
import type { ProjectView } from "../../../src/contracts/projects";
import { api, type ListPage } from "./client";

export const ME_KEY = ["me"] as const;
export const PROJECTS_KEY = ["projects"] as const;

/**
 * The session query: the signed-in user, or null when signed out. It asks /api/auth/session,
 * which answers 200 either way, so a signed-out visit logs no 401 in the console.
 */
export const meQuery = {
  queryKey: ME_KEY,
  queryFn: async (): Promise<Me | null> => (await api<SessionState>("/api/auth/session")).me,
  staleTime: 60_000,
};

export function useMe() {
  return useQuery(meQuery);
}

/** The projects query, shared by the hook and the start-up prefetch. */
export const projectsQuery = {
  queryKey: PROJECTS_KEY,
  queryFn: () => api<ListPage<ProjectView>>("/api/projects", { query: { limit: 1000 } }),
};

export function useProjects() {
  return useQuery({ ...projectsQuery, select: (page) => page.data });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api<Me>("/api/auth/login", { method: "POST", body: input }),
    onSuccess: async () => {
      client.clear();
      await client.invalidateQueries({ queryKey: ME_KEY });
    },
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>("/api/auth/logout", { method: "POST" }),
    onSettled: () => {
      client.clear();
      client.setQueryData(ME_KEY, null);
    },
  });
}

/** The role the user has in an organization; writes are hidden from viewers. */
export function useRole(orgId: string | undefined): string | undefined {
  const me = useMe();
  return me.data?.organizations.find((o) => o.id === orgId)?.role;
}

export const canWrite = (role: string | undefined) => role !== undefined && role !== "viewer";
export const canManage = (role: string | undefined) => role === "owner" || role === "admin";
