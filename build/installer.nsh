; Included by electron-builder's NSIS installer (build/electron-builder.yml, nsis.include).
;
; A school's invite links (learning-desktop://add-site?...) open the app from the moment it is installed, not only
; after its first start: the scheme is registered for this user (SHCTX is HKCU for a per-user install, HKLM for a
; per-machine one), pointing at the installed executable. The uninstaller removes the key, except when it runs as
; part of an update, whose installer writes it again.
!macro customInstall
  WriteRegStr SHCTX "Software\Classes\learning-desktop" "" "URL:Learning Desktop invite link"
  WriteRegStr SHCTX "Software\Classes\learning-desktop" "URL Protocol" ""
  WriteRegStr SHCTX "Software\Classes\learning-desktop\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\learning-desktop\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
!macroend

!macro customUnInstall
  ${ifNot} ${isUpdated}
    DeleteRegKey SHCTX "Software\Classes\learning-desktop"
  ${endIf}
!macroend
