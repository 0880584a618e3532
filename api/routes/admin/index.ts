import { apiRouter } from "../../openapi";
import { catalogueRoutes } from "./catalogue";
import { couponRoutes } from "./coupons";
import { contentAdminRoutes } from "./content";
import { customerRoutes } from "./customers";
import { adminPrivacyRoutes } from "./privacy";
import { inboxRoutes } from "./inbox";
import { securityRoutes } from "./security";
import { keyRoutes } from "./keys";
import { notificationRoutes } from "./notifications";
import { adminOrderRoutes } from "./orders";
import { staffRoutes } from "./staff";
import { stockRoutes } from "./stock";

/** The back office's API, /v1/admin/* (ADR 023): each module's routes check their staff area. */
export const adminRoutes = apiRouter()
  .route("/", staffRoutes)
  .route("/", adminOrderRoutes)
  .route("/", catalogueRoutes)
  .route("/", stockRoutes)
  .route("/", keyRoutes)
  .route("/", customerRoutes)
  .route("/", adminPrivacyRoutes)
  .route("/", couponRoutes)
  .route("/", notificationRoutes)
  .route("/", inboxRoutes)
  .route("/", securityRoutes)
  .route("/", contentAdminRoutes);
