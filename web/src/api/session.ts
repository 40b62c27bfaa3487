import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type ListPage } from "./client";

export interface Organization {
  id: string;
  name: string;
  role: "owner" | "admin" | "member" | "viewer" | string;
}

export interface Me {
  user: { id: string; email: string; name: string; createdAt: string };
  organizations: Organization[];
  sessionExpiresAt: string;
}

export interface Project {
  id: string;
  orgId: string;
  name: string;
  createdAt: string;
}

export const ME_KEY = ["me"] as const;
export const PROJECTS_KEY = ["projects"] as const;

/** The signed-in user, or null when signed out. */
export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => {
      try {
        return await api<Me>("/api/auth/me");
      } catch (error) {
        if (error instanceof Error && "status" in error && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** The projects query, shared by the hook and the start-up prefetch. */
export const projectsQuery = {
  queryKey: PROJECTS_KEY,
  queryFn: () => api<ListPage<Project>>("/api/projects", { query: { limit: 1000 } }),
};

export function useProjects() {
  return useQuery({ ...projectsQuery, select: (page) => page.data });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; password: string }) =>
      api<Me>("/api/auth/login", { method: "POST", body: input }),
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
export function useRole(orgId: string | undefined): Organization["role"] | undefined {
  const me = useMe();
  return me.data?.organizations.find((o) => o.id === orgId)?.role;
}

export const canWrite = (role: string | undefined) => role !== undefined && role !== "viewer";
export const canManage = (role: string | undefined) => role === "owner" || role === "admin";
