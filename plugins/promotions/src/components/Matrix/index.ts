export { OrganisationMatrix } from './OrganisationMatrix';
