import { apiRouter } from "../../openapi";
import { couponRoutes } from "./coupons";
import { customerRoutes } from "./customers";
import { keyRoutes } from "./keys";
import { notificationRoutes } from "./notifications";
import { staffRoutes } from "./staff";
import { stockRoutes } from "./stock";

/** The back office's API, /v1/admin/* (ADR 023): each module's routes check their staff area. */
export const adminRoutes = apiRouter()
  .route("/", staffRoutes)
  .route("/", stockRoutes)
  .route("/", keyRoutes)
  .route("/", customerRoutes)
  .route("/", couponRoutes)
  .route("/", notificationRoutes);
