use super::*;

#[test]
fn every_picker_is_named_once_as_serde_names_it() {
    for (p, name, help) in PICKERS {
        assert_eq!(p.name(), *name);
        assert!(!help.is_empty());
        let json = serde_json::to_string(p).unwrap();
        assert_eq!(json, format!("\"{name}\""));
    }
    assert_eq!(PICKERS.len(), 5);
}

#[test]
fn servers_are_checked() {
    assert_eq!(
        Writers::new(Picker::Sticky, 0).unwrap_err().param,
        "servers"
    );
    // One limit for every picker.
    let many = crate::model::defaults::MAX_SERVERS + 1;
    for p in [Picker::TwoChoice, Picker::Random, Picker::UserHash] {
        assert!(Writers::new(p, many).is_err(), "{p:?}");
        assert!(Writers::new(p, many - 1).is_ok(), "{p:?}");
    }
}
