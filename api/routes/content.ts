import { Hono } from "hono";
import type { ApiEnv } from "../context";

export const contentRoutes = new Hono<ApiEnv>();
