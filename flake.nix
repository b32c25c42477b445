{
  description = "choir: a real-time choir practice engine for the terminal";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" ];
      forAll = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in {
      devShells = forAll (pkgs: {
        default = pkgs.mkShell {
          packages = with pkgs; [
            swift
            swiftpm
            pkg-config
            fluidsynth
            alsa-lib
            fftwFloat
            libsndfile
            zlib
            rubberband
            speexdsp
            # choir scan: HTTPS, the pages' images, PDFs rendered by pdftoppm.
            curl
            libjpeg_turbo
            libpng
            poppler_utils
            python3
            # The real-time and browser tests: a PulseAudio null sink, a terminal, a browser.
            pulseaudio
            tmux
            chromium
            soundfont-fluid
            just
          ];
          # choir looks here before Debian's SoundFont paths.
          CHOIR_SOUNDFONT = "${pkgs.soundfont-fluid}/share/soundfonts/FluidR3_GM2-2.sf2";
        };
      });
    };
}
