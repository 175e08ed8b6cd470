package consent
