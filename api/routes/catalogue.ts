import { Hono } from "hono";
import type { ApiEnv } from "../context";

export const catalogueRoutes = new Hono<ApiEnv>();
