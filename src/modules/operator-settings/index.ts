export { operatorSettings } from './schema.js';
export {
  createOperatorSettingsService,
  isOperatorSettingKey,
  OPERATOR_SETTINGS,
  type OperatorSettingKey,
  type OperatorSettingsService,
  operatorSettingValue,
  readOperatorSetting,
  storedOperatorSettings,
  writeOperatorSetting,
} from './service.js';
