import { Hono } from "hono";
import type { ApiEnv } from "../context";

export const cartRoutes = new Hono<ApiEnv>();
