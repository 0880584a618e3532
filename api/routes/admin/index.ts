import { apiRouter } from "../../openapi";
import { keyRoutes } from "./keys";
import { staffRoutes } from "./staff";
import { stockRoutes } from "./stock";

/** The back office's API, /v1/admin/* (ADR 023): each module's routes check their staff area. */
export const adminRoutes = apiRouter().route("/", staffRoutes).route("/", stockRoutes).route("/", keyRoutes);
