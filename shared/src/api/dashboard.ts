/** Dashboard responses: the shapes the server answers and the web reads. */

/** GET /api/dashboard/stats */
export interface DashboardStats {
  /** Messages delivered since the first day of this month (UTC). */
  sentThisMonth: number;
  sentTotal: number;
  /** Unique human opens / clicks over the messages delivered since the start of the previous month (0–1). */
  openRate: number;
  clickRate: number;
  /** The messages the rates cover: delivered since the start of the previous month. */
  rateWindowDelivered: number;
}
