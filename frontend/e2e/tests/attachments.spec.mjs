import { register } from '../register.mjs';
import spec from '../specs/attachments.mjs';

register(spec);
