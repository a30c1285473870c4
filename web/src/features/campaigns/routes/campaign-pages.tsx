/**
 * The campaigns feature's route chunk: the router loads this one module for every campaign page (one chunk, as
 * before), each page living in its own file.
 */
export { CampaignCalendarPage } from './campaign-calendar-page';
export { EditCampaignPage, NewCampaignPage } from './campaign-edit-pages';
export { CampaignViewPage } from './campaign-view-page';
export { CampaignsPage } from './campaigns-page';
